#pragma once
// A directory of its own under the system's temp directory, for the files a
// helper program (an exporter) reads and writes, removed with the object.

#include <filesystem>
#include <string>

namespace tracebench {

class ScratchDirectory {
 public:
  /// Makes $TMPDIR/tracebench-<purpose>-XXXXXX. Throws std::runtime_error if it cannot.
  explicit ScratchDirectory(const std::string& purpose);
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

}  // namespace tracebench
