#pragma once
// What the machine is doing to the numbers, checked before a run as
// google/benchmark warns about CPU scaling: the frequency governor, turbo,
// SMT siblings among the CPUs the run uses, the load, the build type and
// OpenBLAS's threads. Each check is recorded in the environment block; a
// warning names its fix; what cannot be read is "unknown", never "ok".

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tracebench {

struct SystemCheck {
  std::string name;    // cpu_governor, turbo, smt_siblings, load, build_type, openblas_threads
  std::string state;   // "ok", "warning" or "unknown"
  std::string detail;  // what was found; for a warning, also the fix
};

/// Reads a file's text (nullopt when it cannot be read): the real files, or
/// a test's own.
using FileReader = std::function<std::optional<std::string>(const std::string& path)>;

/// The files as they are.
std::optional<std::string> read_system_file(const std::string& path);

/// What the checks look at besides the files.
struct SystemCheckInputs {
  std::vector<int> cpus;                                 // the CPUs the run may use
  std::string build_type;                                // CMAKE_BUILD_TYPE of this build
  std::optional<std::string> openblas_threads_variable;  // OPENBLAS_NUM_THREADS, if set
};

/// Every check, in a fixed order.
std::vector<SystemCheck> check_system(const SystemCheckInputs& inputs, const FileReader& read);

/// Seconds of CPU time so far: the whole machine's busy time (/proc/stat), and
/// this process's with its waited-for children's. Their difference over a
/// stretch of wall time is what other processes used.
struct CpuTimes {
  double machine_busy_s = 0;
  double ours_s = 0;
};
CpuTimes cpu_times_now();

/// Cores other processes kept busy between `start` and `end`, `wall_s` apart.
double other_busy_cores(const CpuTimes& start, const CpuTimes& end, double wall_s);

}  // namespace tracebench
