#include "util/scratch_directory.h"

#include <stdlib.h>

#include <stdexcept>

namespace tracebench {

namespace fs = std::filesystem;

ScratchDirectory::ScratchDirectory(const std::string& purpose) {
  std::string pattern =
      (fs::temp_directory_path() / ("tracebench-" + purpose + "-XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("cannot make a directory in " + fs::temp_directory_path().string());
  }
  path_ = pattern;
}

ScratchDirectory::~ScratchDirectory() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

}  // namespace tracebench
