#pragma once
// Paths the tests need, fixed by CMake at build time.

#include <filesystem>
#include <string>

namespace tracebench::testing {

inline std::filesystem::path source_path(const std::string& relative) {
  return std::filesystem::path(TRACEBENCH_SOURCE_DIR) / relative;
}

/// A fresh, empty directory under the system temp folder.
inline std::filesystem::path fresh_temp_directory(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("tracebench-test-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace tracebench::testing
