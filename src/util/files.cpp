#include "util/files.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <fstream>
#include <sstream>

namespace tracebench {

std::string file_name_part(std::string name) {
  std::replace_if(
      name.begin(), name.end(),
      [](unsigned char c) { return !(std::isalnum(c) || c == '_' || c == '-' || c == '.'); }, '_');
  return name;
}

std::filesystem::path partial_path_beside(const std::filesystem::path& target) {
  static std::atomic<unsigned> calls{0};
  return target.string() + "." + std::to_string(getpid()) + "-" + std::to_string(calls++) + ".tmp";
}

std::string model_backend_file(const std::string& dir, const std::string& model,
                               const std::string& backend, const std::string& extension) {
  return (std::filesystem::path(dir) /
          (file_name_part(model) + "." + file_name_part(backend) + extension))
      .string();
}

std::optional<std::string> read_file(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

}  // namespace tracebench
