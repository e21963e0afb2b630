#include "measure/system_checks.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "util/cpu_set.h"
#include "util/files.h"
#include "util/text.h"

namespace tracebench {

namespace {

constexpr const char* kOk = "ok";
constexpr const char* kWarning = "warning";
constexpr const char* kUnknown = "unknown";

std::string cpu_file(int cpu, const std::string& leaf) {
  return "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/" + leaf;
}

SystemCheck check_governor(const std::vector<int>& cpus, const FileReader& read) {
  std::map<std::string, std::vector<int>> cpus_by_governor;
  for (const int cpu : cpus) {
    if (auto governor = read(cpu_file(cpu, "cpufreq/scaling_governor"))) {
      cpus_by_governor[trim(*governor)].push_back(cpu);
    }
  }
  if (cpus_by_governor.empty()) {
    return {"cpu_governor", kUnknown,
            "no CPU frequency governor to read (/sys/devices/system/cpu/cpu*/cpufreq: a VM or "
            "container may hide it)"};
  }
  std::vector<std::string> found;
  for (const auto& [governor, on] : cpus_by_governor) {
    found.push_back(governor + " on CPUs " + cpu_list_text(on));
  }
  if (cpus_by_governor.size() == 1 && cpus_by_governor.count("performance")) {
    return {"cpu_governor", kOk, join(found, "; ")};
  }
  return {"cpu_governor", kWarning,
          "CPU frequency governor " + join(found, "; ") +
              ": clocks follow the load, so the first samples run slower; set it with "
              "`sudo cpupower frequency-set -g performance`"};
}

SystemCheck check_turbo(const FileReader& read) {
  // intel_pstate says whether turbo is off; acpi-cpufreq (and AMD) whether boost is on.
  if (auto no_turbo = read("/sys/devices/system/cpu/intel_pstate/no_turbo")) {
    if (trim(*no_turbo) == "1") return {"turbo", kOk, "turbo off (intel_pstate)"};
    return {"turbo", kWarning,
            "turbo on (intel_pstate): clocks depend on temperature and how many cores are busy; "
            "turn it off with `echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo`"};
  }
  if (auto boost = read("/sys/devices/system/cpu/cpufreq/boost")) {
    if (trim(*boost) == "0") return {"turbo", kOk, "boost off (cpufreq)"};
    return {"turbo", kWarning,
            "boost on (cpufreq): clocks depend on temperature and how many cores are busy; "
            "turn it off with `echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost`"};
  }
  return {"turbo", kUnknown,
          "no turbo or boost switch to read (intel_pstate/no_turbo, cpufreq/boost)"};
}

SystemCheck check_smt_siblings(const std::vector<int>& cpus, const FileReader& read) {
  std::set<std::vector<int>> shared_cores;
  bool any_read = false;
  for (const int cpu : cpus) {
    const auto text = read(cpu_file(cpu, "topology/thread_siblings_list"));
    const auto siblings = text ? cpus_of_list_text(trim(*text)) : std::nullopt;
    if (!siblings) continue;
    any_read = true;
    std::vector<int> used;
    for (const int sibling : *siblings) {
      if (std::binary_search(cpus.begin(), cpus.end(), sibling)) used.push_back(sibling);
    }
    if (used.size() > 1) shared_cores.insert(used);
  }
  if (!any_read) {
    return {"smt_siblings", kUnknown,
            "no CPU topology to read (cpu*/topology/thread_siblings_list)"};
  }
  if (shared_cores.empty()) {
    return {"smt_siblings", kOk, "each CPU of " + cpu_list_text(cpus) + " on a core of its own"};
  }
  std::vector<std::string> groups;
  for (const auto& core : shared_cores) groups.push_back(cpu_list_text(core));
  return {"smt_siblings", kWarning,
          "CPUs " + join(groups, " and ") +
              " are SMT siblings sharing one core's execution units; bind one CPU per core "
              "with --cpus"};
}

SystemCheck check_load(const std::vector<int>& cpus, const FileReader& read) {
  const auto text = read("/proc/loadavg");
  double load = 0;
  if (!text || std::sscanf(text->c_str(), "%lf", &load) != 1) {
    return {"load", kUnknown, "no load average to read (/proc/loadavg)"};
  }
  const std::string figure = printf_string("%.2f", load);
  // Half a core busy on average over the last minute is another program at work.
  if (load < 0.5) return {"load", kOk, "load average " + figure + " over the last minute"};
  return {"load", kWarning,
          "load average " + figure + " over the last minute, on a run of " +
              std::to_string(cpus.size()) +
              " CPU(s): other processes compete for the cores; let them finish or stop them "
              "(each row warns `busy_machine` when others ran during its model)"};
}

SystemCheck check_build_type(const std::string& build_type) {
  if (build_type == "Release" || build_type == "RelWithDebInfo" || build_type == "MinSizeRel") {
    return {"build_type", kOk, build_type + " build"};
  }
  // Unoptimized, the harness's own code (timing loop, eager glue) is slower.
  return {"build_type", kWarning,
          "this tracebench is a " + (build_type.empty() ? std::string("unknown") : build_type) +
              " build, not optimized: its numbers are not a release build's; rebuild with "
              "-DCMAKE_BUILD_TYPE=Release (make build)"};
}

SystemCheck check_openblas_threads(const std::optional<std::string>& variable) {
  if (!variable) {
    return {"openblas_threads", kOk, "OpenBLAS set to 1 thread by tracebench"};
  }
  if (trim(*variable) == "1") return {"openblas_threads", kOk, "OPENBLAS_NUM_THREADS=1"};
  return {"openblas_threads", kWarning,
          "OPENBLAS_NUM_THREADS=" + *variable +
              ": OpenBLAS's own workers spin after every call and take cores from LibTorch's "
              "threads; unset it (tracebench then gives OpenBLAS 1 thread)"};
}

}  // namespace

std::optional<std::string> read_system_file(const std::string& path) { return read_file(path); }

std::vector<SystemCheck> check_system(const SystemCheckInputs& inputs, const FileReader& read) {
  return {check_governor(inputs.cpus, read),
          check_turbo(read),
          check_smt_siblings(inputs.cpus, read),
          check_load(inputs.cpus, read),
          check_build_type(inputs.build_type),
          check_openblas_threads(inputs.openblas_threads_variable)};
}

CpuTimes cpu_times_now() {
  CpuTimes times;
  std::istringstream stat(read_file("/proc/stat").value_or(""));
  std::string label;
  std::vector<double> ticks;
  stat >> label;
  for (double tick; ticks.size() < 8 && stat >> tick;) ticks.push_back(tick);
  if (label == "cpu" && ticks.size() >= 5) {
    double busy = 0;
    for (size_t i = 0; i < ticks.size(); ++i) {
      if (i != 3 && i != 4) busy += ticks[i];  // less idle and iowait
    }
    times.machine_busy_s = busy / static_cast<double>(sysconf(_SC_CLK_TCK));
  }
  for (const int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage usage{};
    if (getrusage(who, &usage) != 0) continue;
    times.ours_s += usage.ru_utime.tv_sec + usage.ru_utime.tv_usec * 1e-6 + usage.ru_stime.tv_sec +
                    usage.ru_stime.tv_usec * 1e-6;
  }
  return times;
}

double other_busy_cores(const CpuTimes& start, const CpuTimes& end, double wall_s) {
  if (!(wall_s > 0)) return 0;
  const double others = (end.machine_busy_s - start.machine_busy_s) - (end.ours_s - start.ours_s);
  return std::max(0.0, others / wall_s);
}

}  // namespace tracebench
