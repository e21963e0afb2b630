#pragma once
// Where compiled and exported user models are kept between runs, and the
// content hash that names them.

#include <filesystem>
#include <string>

namespace tracebench {

/// $TRACEBENCH_CACHE_DIR, else $XDG_CACHE_HOME/tracebench, else ~/.cache/tracebench.
/// Created if missing.
std::filesystem::path cache_directory();

/// 64-bit FNV-1a of `data`, as 16 hex digits. Stable across runs and machines.
std::string content_hash(const std::string& data);

/// The whole file as bytes. Throws UsageError if it cannot be read.
std::string read_file(const std::filesystem::path& path);

/// Moves `from` onto `to` in one step, so readers never see half a file.
void replace_file(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace tracebench
