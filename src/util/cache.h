#pragma once
// Where compiled and exported user models and AOTInductor packages are kept
// between runs, and the content hash that names them.

#include <filesystem>
#include <string>
#include <vector>

namespace tracebench {

/// $TRACEBENCH_CACHE_DIR, else $XDG_CACHE_HOME/tracebench, else ~/.cache/tracebench.
/// Created if missing.
std::filesystem::path cache_directory();

/// 64-bit FNV-1a of `data`, as 16 hex digits. Stable across runs and machines.
std::string content_hash(const std::string& data);

/// The whole model file (or a file it depends on) as bytes. Throws UsageError
/// naming --only if it does not exist or cannot be read.
std::string read_model_file(const std::filesystem::path& path);

/// Records the files a cached artifact was built from besides its key (the
/// modules a .py model imported, the headers a .cpp model included), with
/// their content hashes, next to the artifact.
void write_dependency_manifest(const std::filesystem::path& artifact,
                               const std::vector<std::filesystem::path>& files);

/// True if the artifact exists and every file its manifest lists still has
/// the recorded content. False without a manifest: an artifact from before
/// manifests existed is rebuilt once.
bool cached_artifact_is_current(const std::filesystem::path& artifact);

/// Moves `from` onto `to` in one step, so readers never see half a file.
void replace_file(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace tracebench
