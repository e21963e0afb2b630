#include "util/cache.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tracebench/error.h"
#include "util/files.h"

namespace tracebench {

std::filesystem::path cache_directory() {
  std::filesystem::path dir;
  if (const char* explicit_dir = std::getenv("TRACEBENCH_CACHE_DIR");
      explicit_dir && *explicit_dir) {
    dir = explicit_dir;
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    dir = std::filesystem::path(xdg) / "tracebench";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    dir = std::filesystem::path(home) / ".cache" / "tracebench";
  } else {
    dir = std::filesystem::temp_directory_path() / "tracebench-cache";
  }
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    throw UsageError("cannot create cache directory " + dir.string() + ": " + error.message() +
                     "; set TRACEBENCH_CACHE_DIR to a writable folder");
  }
  return dir;
}

std::string content_hash(const std::string& data) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char byte : data) {
    hash ^= byte;
    hash *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

std::string read_model_file(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw UsageError("model file " + path.string() + " does not exist; check the path in --only");
  }
  auto contents = read_file(path);
  if (!contents) throw UsageError("cannot read " + path.string() + "; check its permissions");
  return *contents;
}

namespace {

std::filesystem::path manifest_of(const std::filesystem::path& artifact) {
  return artifact.string() + ".deps";
}

// The file's content hash, or "missing" when it cannot be read.
std::string hash_of_file(const std::filesystem::path& path) {
  try {
    return content_hash(read_model_file(path));
  } catch (const UsageError&) {
    return "missing";
  }
}

}  // namespace

void write_dependency_manifest(const std::filesystem::path& artifact,
                               const std::vector<std::filesystem::path>& files) {
  const auto manifest = manifest_of(artifact);
  const auto partial = partial_path_beside(manifest);
  {
    std::ofstream out(partial, std::ios::trunc);
    for (const auto& file : files) out << hash_of_file(file) << '\t' << file.string() << '\n';
  }
  replace_file(partial, manifest);
}

bool cached_artifact_is_current(const std::filesystem::path& artifact) {
  std::error_code error;
  if (!std::filesystem::exists(artifact, error)) return false;
  std::ifstream in(manifest_of(artifact));
  if (!in) return false;
  for (std::string line; std::getline(in, line);) {
    const auto tab = line.find('\t');
    if (tab == std::string::npos) return false;
    if (hash_of_file(line.substr(tab + 1)) != line.substr(0, tab)) return false;
  }
  return true;
}

void replace_file(const std::filesystem::path& from, const std::filesystem::path& to) {
  std::error_code error;
  std::filesystem::rename(from, to, error);
  if (!error) return;
  if (error != std::errc::cross_device_link)
    throw std::filesystem::filesystem_error("rename", from, to, error);
  // From a temp directory on another file system (a tmpfs /tmp): copied next
  // to `to` first, so that the last step is still one rename.
  auto beside = to;
  beside += ".partial";
  std::filesystem::copy_file(from, beside, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::rename(beside, to);
  std::filesystem::remove(from);
}

}  // namespace tracebench
