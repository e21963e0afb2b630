#pragma once
// Reading a whole file, for every folder: the callers say what a missing file
// means (a fact left unknown, or a one-line error naming the fix); and naming
// the files a run writes.

#include <filesystem>
#include <optional>
#include <string>

namespace tracebench {

/// `name` (a model or backend name) as part of a file name: characters other
/// than letters, digits, `_`, `-` and `.` become `_`, so that a path-like
/// model spec makes no directories.
std::string file_name_part(std::string name);

/// DIR/<model>.<backend><extension>, the file a run writes for one model and
/// backend (--profile traces, --save-optimized modules, --save-outputs).
std::string model_backend_file(const std::string& dir, const std::string& model,
                               const std::string& backend, const std::string& extension);

/// A name beside `target` for the file that is written whole and then renamed
/// onto it: unique to this process and call, so that two processes (ctest's
/// parallel tests filling one model cache) or two threads writing the same
/// target never rename each other's half-written file.
std::filesystem::path partial_path_beside(const std::filesystem::path& target);

/// The bytes of `path`; nullopt if it is not a regular file or cannot be read.
/// Files of /proc and /sys read whole although their size says 0.
std::optional<std::string> read_file(const std::filesystem::path& path);

}  // namespace tracebench
