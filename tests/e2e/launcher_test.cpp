// End-to-end: the launcher's flags (orchestration/launcher.h) reach the process that
// measures, and the reports say so.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "test_paths.h"
#include "tracebench_cli.h"
#include "util/cpu_set.h"
#include "util/python_interpreter.h"

namespace tracebench {
namespace {

using testing::tracebench;
using testing::tracebench_json;

// The binding is read back from the run, and a child inherits it: its
// default thread count follows the one bound CPU.
TEST(Launcher, CpusBindTheRunAndItsThreads) {
  const auto report = tracebench_json(
      {"--performance", "--backend=ts", "-k", "^Linear", "-n", "3", "--cpus", "0"}, "cpus.json");
  EXPECT_EQ(report["environment"]["cpus"], "0");
  EXPECT_EQ(report["config"]["cpus"], "0");
  ASSERT_EQ(report["rows"].size(), 1u);
  EXPECT_EQ(report["rows"][0]["status"], "pass") << report["rows"][0];
  EXPECT_EQ(report["rows"][0]["threads"], 1);
}

// The model's own process runs on the bound CPU: a model that returns the
// CPUs it may run on, read back through --save-outputs, says "0".
TEST(Launcher, CpusBindTheModelsProcess) {
  if (allowed_cpus().size() < 2) GTEST_SKIP() << "one CPU: nothing to bind away from";
  const auto dir = testing::process_temp_path("affinity");
  const auto result = tracebench({"--performance", "--backend=eager", "-n", "2", "--cpus", "0",
                                  "--save-outputs", dir.string(),
                                  "--only=path:" + std::string(testing::source_dir()) +
                                      "/tests/data/affinity_model.cpp,class:AffinityModel"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  std::string saved;
  for (const auto& file : std::filesystem::directory_iterator(dir)) saved = file.path().string();
  ASSERT_NE(saved.find(".eager.pt"), std::string::npos) << saved;
  const auto cpus = run_command(
      {python_interpreter(), "-c", "import torch; print(torch.load('" + saved + "').tolist())"});
  ASSERT_EQ(cpus.exit_code, 0) << cpus.output;
  EXPECT_NE(cpus.output.find("[0.0]"), std::string::npos) << cpus.output;
}

// Each allocator of the list is a point, eager included, and each row's
// allocator is the one its child process found mapped (/proc/self/maps).
TEST(Launcher, MallocSweepRunsEachAllocatorInTheChild) {
  if (!std::filesystem::exists("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2")) {
    GTEST_SKIP() << "libjemalloc2 not installed: apt-get install libjemalloc2";
  }
  const auto report = tracebench_json({"--performance", "--backend=ts", "-k", "^Linear", "-n", "3",
                                       "--malloc", "glibc,jemalloc", "--omp-wait", "passive"},
                                      "malloc.json");
  std::set<std::string> allocators;
  for (const auto& row : report["rows"]) {
    EXPECT_EQ(row["status"], "pass") << row;
    EXPECT_GT(row["eager_latency_ms"].get<double>(), 0) << row;
    EXPECT_EQ(row["warnings"].dump().find("malloc_not_applied"), std::string::npos) << row;
    allocators.insert(row["malloc"].get<std::string>());
  }
  EXPECT_EQ(report["rows"].size(), 2u);
  EXPECT_EQ(allocators, (std::set<std::string>{"glibc", "jemalloc"}));
  EXPECT_EQ(report["config"]["malloc"], nlohmann::json({"glibc", "jemalloc"}));
  EXPECT_EQ(report["config"]["omp_wait"], "passive");
}

// Without --malloc, the allocator the environment gives is the run's: its
// config and rows say hugetlb, and nothing warns that glibc was not applied,
// with or without the child processes.
TEST(Launcher, EnvironmentsAllocatorIsTheRunsWithoutMalloc) {
  for (const bool isolated : {true, false}) {
    const char* isolation = isolated ? "isolated" : "--no-isolation";
    const auto json = testing::process_temp_path(std::string("env_malloc_") + isolation + ".json");
    std::vector<std::string> command = {"/usr/bin/env", "GLIBC_TUNABLES=glibc.malloc.hugetlb=1",
                                        testing::tracebench_binary()};
    command.insert(command.end(), {"--performance", "--backend=ts", "-k", "^Linear", "-n", "2",
                                   "--json", json.string()});
    if (!isolated) command.push_back(isolation);
    const auto result = run_command(command);
    ASSERT_EQ(result.exit_code, 0) << isolation << "\n" << result.output;
    std::ifstream in(json);
    const auto report = nlohmann::json::parse(in);
    EXPECT_EQ(report["config"]["malloc"], "hugetlb") << isolation;
    ASSERT_EQ(report["rows"].size(), 1u) << isolation;
    const auto& row = report["rows"][0];
    EXPECT_EQ(row["malloc"], "hugetlb") << row;
    EXPECT_EQ(row["warnings"].dump().find("malloc_not_applied"), std::string::npos) << row;
  }
}

TEST(Launcher, AllocatorWithoutChildProcessesNamesTheFix) {
  const auto result = tracebench(
      {"--performance", "--backend=ts", "-k", "^Linear", "--malloc", "hugetlb", "--no-isolation"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("drop --no-isolation"), std::string::npos) << result.output;
}

// Two models and a cooldown: one rest, between them, each announced; none
// without --cooldown. Counted, not timed: a bound on the run's wall time
// flaked on a loaded machine, and the run's time alone would not tell a rest
// from two slow model processes.
TEST(Launcher, CooldownRestsBetweenModels) {
  const auto rests = [](const std::string& cooldown) {
    const auto json = testing::process_temp_path("cooldown" + cooldown + ".json");
    const auto result =
        tracebench({"--performance", "--backend=eager", "-k", "^Linear", "-k", "small_convnet",
                    "-n", "2", "--cooldown", cooldown, "--json", json.string()});
    EXPECT_EQ(result.exit_code, 0) << result.output;
    const auto report = nlohmann::json::parse(testing::read_file(json));
    EXPECT_EQ(report["rows"].size(), 2u);
    EXPECT_EQ(report["config"]["cooldown_s"], std::stod(cooldown));
    size_t count = 0;
    for (size_t at = result.output.find("--cooldown: resting"); at != std::string::npos;
         at = result.output.find("--cooldown: resting", at + 1)) {
      ++count;
    }
    return count;
  };
  EXPECT_EQ(rests("0"), 0u);
  EXPECT_EQ(rests("1"), 1u);
}

}  // namespace
}  // namespace tracebench
