#pragma once
// Paths the tests need: the source tree and the binary under test, which
// CMake writes into one generated file (tests/CMakeLists.txt: test_locations)
// so that no other test object holds the clone's path and a compiler cache
// serves them from another clone; and scratch paths private to this test
// process.

#include <unistd.h>

#include <filesystem>
#include <string>

namespace tracebench::testing {

/// The source tree's root, as an absolute path.
const char* source_dir();

/// The tracebench binary of this build tree.
const char* tracebench_binary();

inline std::filesystem::path source_path(const std::string& relative) {
  return std::filesystem::path(source_dir()) / relative;
}

/// `name` inside a temp folder of this process's own. ctest runs each test in
/// its own process, several at once: two processes sharing one fixed path read
/// each other's half-written files, so every scratch path carries the pid.
/// The folder is removed when the process exits.
inline std::filesystem::path process_temp_path(const std::string& name) {
  struct ProcessTempDir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("tracebench-test-" + std::to_string(::getpid()));
    ProcessTempDir() { std::filesystem::create_directories(path); }
    ~ProcessTempDir() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const ProcessTempDir dir;
  return dir.path / name;
}

/// A fresh, empty directory private to this process.
inline std::filesystem::path fresh_temp_directory(const std::string& name) {
  auto dir = process_temp_path(name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace tracebench::testing
