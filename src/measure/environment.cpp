#include "measure/environment.h"

#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <torch/version.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iterator>
#include <sstream>
#include <thread>

#include "measure/openblas.h"
#include "util/build_config.h"
#include "util/cpu_set.h"
#include "util/files.h"
#include "util/text.h"

namespace tracebench {

namespace {

// What cannot be read stays unknown: "".
std::string read_or_empty(const std::string& path) { return read_file(path).value_or(""); }

std::string cpu_model_name() {
  std::istringstream in(read_or_empty("/proc/cpuinfo"));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) return trim(line.substr(line.find(':') + 1));
  }
  return "";
}

std::string first_fields(const std::string& text, int count) {
  std::istringstream in(text);
  std::string result, field;
  for (int i = 0; i < count && in >> field; ++i) result += (i ? " " : "") + field;
  return result;
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm parts{};
  gmtime_r(&now, &parts);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return buffer;
}

}  // namespace

std::vector<std::string> kernel_cpu_flags(const std::string& cpuinfo_text) {
  // What oneDNN, XNNPACK and fbgemm dispatch on: bf16 and int8 speed depend on them.
  static const char* const kKernelFlags[] = {
      "avx2",        "fma",         "avx_vnni", "avx512f",  "avx512bw", "avx512_vnni",
      "avx512_bf16", "avx512_fp16", "amx_tile", "amx_bf16", "amx_int8"};
  std::istringstream in(cpuinfo_text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::vector<std::string> present((std::istream_iterator<std::string>(words)),
                                     std::istream_iterator<std::string>());
    std::vector<std::string> found;
    for (const char* flag : kKernelFlags) {
      if (std::find(present.begin(), present.end(), flag) != present.end()) found.push_back(flag);
    }
    return found;
  }
  return {};
}

const std::vector<std::string>& this_cpu_kernel_flags() {
  static const std::vector<std::string> flags = kernel_cpu_flags(read_or_empty("/proc/cpuinfo"));
  return flags;
}

bool has_native_bf16(const std::vector<std::string>& flags) {
  return std::find(flags.begin(), flags.end(), "avx512_bf16") != flags.end() ||
         std::find(flags.begin(), flags.end(), "amx_bf16") != flags.end();
}

bool has_native_int8_dot(const std::vector<std::string>& flags) {
  for (const char* flag : {"avx512_vnni", "avx_vnni", "amx_int8"}) {
    if (std::find(flags.begin(), flags.end(), flag) != flags.end()) return true;
  }
  return false;
}

std::vector<std::string> blas_libraries_in_maps(const std::string& maps_text) {
  std::vector<std::string> found;
  std::istringstream in(maps_text);
  for (std::string line; std::getline(in, line);) {
    const auto slash = line.find('/');
    if (slash == std::string::npos) continue;
    const std::string path = line.substr(slash);
    const std::string file = path.substr(path.rfind('/') + 1);
    if (file.find("blas") == std::string::npos || file.find(".so") == std::string::npos) continue;
    if (std::find(found.begin(), found.end(), path) == found.end()) found.push_back(path);
  }
  return found;
}

int64_t default_intra_op_threads() {
  static const int64_t found = at::get_num_threads();
  return found;
}

Environment collect_environment() {
  Environment env;
  env.cpu_model = cpu_model_name();
  env.logical_cores = static_cast<int>(std::thread::hardware_concurrency());
  env.torch_threads = at::get_num_threads();
  env.cpus = cpu_list_text(allowed_cpus());
  env.libtorch_version = TORCH_VERSION;
  env.libtorch_config = at::show_config();
  env.blas_libraries = blas_libraries_in_maps(read_or_empty("/proc/self/maps"));
  env.openblas_threads = openblas_threads();
  env.compiler = build_config::kCompilerId;
  env.build_type = build_config::kBuildType;
  env.cpu_flags = this_cpu_kernel_flags();
  env.tracebench_version = build_config::kVersion;
  env.git_revision = build_config::kGitRevision;
  env.time_utc = utc_now();
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) == 0) env.hostname = host;
  env.load_average = first_fields(read_or_empty("/proc/loadavg"), 3);
  return env;
}

}  // namespace tracebench
