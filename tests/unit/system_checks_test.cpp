// The system checks (measure/system_checks.h) on files a test writes itself,
// each state of each check, and on this machine's own files.

#include <gtest/gtest.h>

#include <map>

#include "measure/system_checks.h"
#include "usage_error_helpers.h"

namespace tracebench {
namespace {

// /sys and /proc as a test lays them out: what is not in the map cannot be read.
FileReader files(std::map<std::string, std::string> contents) {
  return [contents](const std::string& path) -> std::optional<std::string> {
    const auto it = contents.find(path);
    if (it == contents.end()) return std::nullopt;
    return it->second;
  };
}

SystemCheck check_named(const std::vector<SystemCheck>& checks, const std::string& name) {
  for (const auto& check : checks) {
    if (check.name == name) return check;
  }
  ADD_FAILURE() << "no check " << name;
  return {};
}

SystemCheckInputs release_on(std::vector<int> cpus) {
  SystemCheckInputs inputs;
  inputs.cpus = std::move(cpus);
  inputs.build_type = "Release";
  return inputs;
}

const std::string kCpu = "/sys/devices/system/cpu/";

TEST(SystemChecks, NothingReadableIsUnknownNotFine) {
  const auto checks = check_system(release_on({0, 1}), files({}));
  ASSERT_EQ(checks.size(), 6u);
  for (const char* name : {"cpu_governor", "turbo", "smt_siblings", "load"}) {
    EXPECT_EQ(check_named(checks, name).state, "unknown") << name;
  }
  EXPECT_EQ(check_named(checks, "build_type").state, "ok");
  EXPECT_EQ(check_named(checks, "openblas_threads").state, "ok");
}

TEST(SystemChecks, QuietTunedMachineIsOk) {
  const auto checks = check_system(release_on({0, 1}),
                                   files({{kCpu + "cpu0/cpufreq/scaling_governor", "performance\n"},
                                          {kCpu + "cpu1/cpufreq/scaling_governor", "performance\n"},
                                          {kCpu + "intel_pstate/no_turbo", "1\n"},
                                          {kCpu + "cpu0/topology/thread_siblings_list", "0,2\n"},
                                          {kCpu + "cpu1/topology/thread_siblings_list", "1,3\n"},
                                          {"/proc/loadavg", "0.08 0.20 0.31 1/210 4242\n"}}));
  for (const auto& check : checks)
    EXPECT_EQ(check.state, "ok") << check.name << ": " << check.detail;
  EXPECT_EQ(check_named(checks, "cpu_governor").detail, "performance on CPUs 0-1");
}

TEST(SystemChecks, EachWarningNamesItsFix) {
  SystemCheckInputs inputs = release_on({0, 2});
  inputs.build_type = "Debug";
  inputs.openblas_threads_variable = "4";
  const auto checks =
      check_system(inputs, files({{kCpu + "cpu0/cpufreq/scaling_governor", "performance\n"},
                                  {kCpu + "cpu2/cpufreq/scaling_governor", "powersave\n"},
                                  {kCpu + "cpufreq/boost", "1\n"},
                                  {kCpu + "cpu0/topology/thread_siblings_list", "0,2\n"},
                                  {kCpu + "cpu2/topology/thread_siblings_list", "0,2\n"},
                                  {"/proc/loadavg", "2.05 1.89 2.35 3/400 123\n"}}));
  for (const auto& check : checks) EXPECT_EQ(check.state, "warning") << check.name;
  EXPECT_CONTAINS(check_named(checks, "cpu_governor").detail,
                  "performance on CPUs 0; powersave on CPUs 2");
  EXPECT_CONTAINS(check_named(checks, "cpu_governor").detail,
                  "cpupower frequency-set -g performance");
  EXPECT_CONTAINS(check_named(checks, "turbo").detail, "echo 0 | sudo tee");
  EXPECT_CONTAINS(check_named(checks, "smt_siblings").detail,
                  "CPUs 0,2 are SMT siblings sharing one core's execution units; bind one CPU per "
                  "core with --cpus");
  EXPECT_CONTAINS(check_named(checks, "load").detail, "load average 2.05");
  EXPECT_CONTAINS(check_named(checks, "build_type").detail, "-DCMAKE_BUILD_TYPE=Release");
  EXPECT_CONTAINS(check_named(checks, "openblas_threads").detail, "OPENBLAS_NUM_THREADS=4");
}

TEST(SystemChecks, IntelTurboSwitch) {
  const auto on = check_system(release_on({0}), files({{kCpu + "intel_pstate/no_turbo", "0\n"}}));
  EXPECT_EQ(check_named(on, "turbo").state, "warning");
  EXPECT_CONTAINS(check_named(on, "turbo").detail, "echo 1 | sudo tee");
}

TEST(SystemChecks, ThisMachinesChecksHaveAState) {
  const auto checks = check_system(release_on({0}), read_system_file);
  ASSERT_EQ(checks.size(), 6u);
  for (const auto& check : checks) {
    EXPECT_TRUE(check.state == "ok" || check.state == "warning" || check.state == "unknown")
        << check.name << ": " << check.state;
    EXPECT_FALSE(check.detail.empty()) << check.name;
  }
  EXPECT_NE(check_named(checks, "load").state, "unknown");  // /proc/loadavg is always there
}

TEST(OtherBusyCores, MachineTimeLessOursOverTheWallTime) {
  EXPECT_DOUBLE_EQ(other_busy_cores({10, 1}, {14, 2}, 2), 1.5);
  EXPECT_DOUBLE_EQ(other_busy_cores({10, 1}, {11, 3}, 2), 0);  // ours counted late: never negative
  EXPECT_DOUBLE_EQ(other_busy_cores({10, 1}, {14, 2}, 0), 0);
  const CpuTimes now = cpu_times_now();
  EXPECT_GT(now.machine_busy_s, 0);
  EXPECT_GT(now.ours_s, 0);
}

}  // namespace
}  // namespace tracebench
