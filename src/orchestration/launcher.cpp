#include "orchestration/launcher.h"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tracebench/error.h"
#include "util/cpu_set.h"
#include "util/text.h"

namespace tracebench {

namespace {

constexpr const char* kHugePagesTunable = "glibc.malloc.hugetlb=1";

// A preloaded allocator: its library as Debian installs it, and the package.
struct PreloadedAllocator {
  const char* name;
  const char* library;
  const char* package;
};

constexpr PreloadedAllocator kPreloaded[] = {
    {"jemalloc", "libjemalloc.so.2", "libjemalloc2"},
    {"tcmalloc", "libtcmalloc_minimal.so.4", "libtcmalloc-minimal4"},
};

// Where Debian (any architecture) and other distributions keep shared libraries.
std::string find_library(const char* library) {
  static const char* const kDirectories[] = {"/usr/lib/x86_64-linux-gnu",
                                             "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib",
                                             "/lib/x86_64-linux-gnu"};
  for (const char* directory : kDirectories) {
    const auto path = std::filesystem::path(directory) / library;
    if (std::filesystem::exists(path)) return path.string();
  }
  return "";
}

// Whether the environment variable's `separator`-separated list holds `item`
// as a whole entry: glibc.malloc.hugetlb=10 is not glibc.malloc.hugetlb=1.
bool listed(const char* variable, const std::string& item, char separator) {
  const char* current = std::getenv(variable);
  if (current == nullptr) return false;
  const auto entries = split(current, separator);
  return std::find(entries.begin(), entries.end(), item) != entries.end();
}

// The environment variable's value with `item` added to its `separator`-separated list.
std::string appended(const char* variable, const std::string& item, char separator) {
  const char* current = std::getenv(variable);
  if (current == nullptr || *current == '\0') return item;
  // Already there (the allocator the environment gives, kept): once is enough.
  if (listed(variable, item, separator)) return current;
  return std::string(current) + separator + item;
}

// --malloc's values: glibc's allocator, glibc backing large blocks with huge
// pages (its glibc.malloc.hugetlb tunable), or Debian's jemalloc / tcmalloc
// preloaded.
const std::vector<std::string>& allocator_names() {
  static const std::vector<std::string> kNames = {"glibc", "hugetlb", "jemalloc", "tcmalloc"};
  return kNames;
}

}  // namespace

std::vector<int> parse_cpu_list(const std::string& text) {
  const auto parsed = cpus_of_list_text(text);
  if (!parsed) {
    throw UsageError("--cpus " + text +
                     " is not a CPU list; give CPU numbers and ascending ranges such as 0-3,6");
  }
  const std::vector<int>& cpus = *parsed;
  const auto allowed = allowed_cpus();
  for (const int cpu : cpus) {
    if (!std::binary_search(allowed.begin(), allowed.end(), cpu)) {
      throw UsageError("--cpus " + text + ": CPU " + std::to_string(cpu) +
                       " is not one this process may run on; choose from " +
                       cpu_list_text(allowed));
    }
  }
  return cpus;
}

void bind_to_cpus(const RunOptions& options) {
  if (options.cpus.empty()) return;
  const auto cpus = parse_cpu_list(options.cpus);
  cpu_set_t set;
  CPU_ZERO(&set);
  for (const int cpu : cpus) CPU_SET(cpu, &set);
  // The calling thread's mask: the threads it starts afterwards (LibTorch's
  // pool on its first parallel region, the children) inherit it.
  if (sched_setaffinity(0, sizeof set, &set) != 0) {
    throw UsageError("--cpus " + options.cpus + ": cannot bind (" + std::strerror(errno) +
                     "); choose CPUs this process may run on");
  }
}

std::vector<std::string> child_environment(const RunOptions& options, const RunPoint& point) {
  std::vector<std::string> environment;
  if (point.allocator == "hugetlb") {
    environment.push_back("GLIBC_TUNABLES=" + appended("GLIBC_TUNABLES", kHugePagesTunable, ':'));
  }
  for (const auto& preloaded : kPreloaded) {
    if (point.allocator != preloaded.name) continue;
    const std::string library = find_library(preloaded.library);
    if (library.empty()) {
      throw UsageError(std::string("--malloc ") + preloaded.name + ": " + preloaded.library +
                       " is not installed; apt-get install " + preloaded.package);
    }
    environment.push_back("LD_PRELOAD=" + appended("LD_PRELOAD", library, ':'));
  }
  // libgomp reads PASSIVE or ACTIVE, in any case.
  if (!options.omp_wait.empty()) environment.push_back("OMP_WAIT_POLICY=" + options.omp_wait);
  return environment;
}

std::string allocator_in_use() {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    for (const auto& preloaded : kPreloaded) {
      if (line.find(preloaded.library) != std::string::npos) return preloaded.name;
    }
  }
  if (listed("GLIBC_TUNABLES", kHugePagesTunable, ':')) return "hugetlb";
  return "glibc";
}

void validate_launcher(const RunOptions& options) {
  const auto& names = allocator_names();
  for (const auto& allocator : options.allocator_sweep) {
    if (std::find(names.begin(), names.end(), allocator) == names.end()) {
      throw UsageError("--malloc " + allocator + " is not an allocator; choose from " +
                       join(names, ", "));
    }
  }
  if (!options.omp_wait.empty() && options.omp_wait != "passive" && options.omp_wait != "active") {
    throw UsageError("--omp-wait " + options.omp_wait + ": choose passive or active");
  }
  const bool starts_children = options.isolate || !options.rows_to.empty();
  // What --malloc asks for: an allocator the environment already gives
  // (options.inherited_allocator) needs no child to apply it.
  const bool sets_allocator =
      std::any_of(options.allocator_sweep.begin(), options.allocator_sweep.end(),
                  [](const std::string& allocator) { return allocator != "glibc"; });
  if (!starts_children && (sets_allocator || !options.omp_wait.empty())) {
    throw UsageError(
        "--malloc and --omp-wait apply when a process starts, to each model's own process; "
        "drop --no-isolation");
  }
  // A missing library is the run's one-line error, before any model runs.
  for (const auto& allocator : options.allocator_sweep) {
    RunPoint point;
    point.allocator = allocator;
    child_environment(options, point);
  }
  if (options.cooldown_s < 0) throw UsageError("--cooldown must be 0 seconds or more");
}

}  // namespace tracebench
