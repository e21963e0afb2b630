// End-to-end (docs/robustness.md): a suite survives models that crash, hang,
// throw or run out of memory; a killed run leaves a clean CSV that --resume
// finishes; backend plugins load from source.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "report/csv_reader.h"
#include "test_paths.h"
#include "tracebench_cli.h"
#include "util/subprocess.h"

extern char** environ;

namespace tracebench {
namespace {

const std::string kBadModelsPath = testing::source_path("tests/data/bad_models.cpp");

std::string bad(const std::string& class_name) {
  return "--only=path:" + kBadModelsPath + ",class:" + class_name;
}

using testing::tracebench;

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// model -> backend -> status, from a CSV; asserts every record is whole.
std::map<std::string, std::map<std::string, std::string>> csv_statuses(
    const std::filesystem::path& path, size_t* records = nullptr) {
  const auto records_read = parse_csv(read_all(path));
  std::map<std::string, std::map<std::string, std::string>> statuses;
  EXPECT_FALSE(records_read.empty());
  if (records_read.empty()) return statuses;
  const size_t width = records_read[0].size();
  for (size_t i = 1; i < records_read.size(); ++i) {
    const auto& record = records_read[i];
    EXPECT_EQ(record.size(), width) << "record " << i;
    if (record.size() != width) continue;
    EXPECT_EQ(statuses[record[1]].count(record[7]), 0u) << "duplicate " << record[1];
    statuses[record[1]][record[7]] = record[10];
  }
  if (records) *records = records_read.size() - 1;
  return statuses;
}

std::filesystem::path temp_file(const std::string& name) {
  auto path = testing::process_temp_path(name);
  std::filesystem::remove(path);
  return path;
}

// Compiles bad_models.cpp into the shared test cache once, so that the short
// --timeout of the suites below does not have to cover the compiler.
class Robustness : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto warm = tracebench({"--performance", bad("GoodModel"), "-n", "1", "--warmup", "0"});
    ASSERT_EQ(warm.exit_code, 0) << warm.output;
  }
};

TEST_F(Robustness, SuiteSurvivesCrashHangAndThrow) {
  const auto csv = temp_file("survives.csv");
  auto result =
      tracebench({"--performance", "--backend=eager,ts", "-n", "3", "--timeout", "15",
                  bad("GoodModel"), bad("Segfaults"), bad("Hangs"), bad("ThrowsInForward"),
                  "--only=LinearModel", "--output", csv.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const std::string& out = result.output;
  EXPECT_TRUE(
      std::regex_search(out, std::regex(R"(Segfaults +eager +crash: killed by signal SIGSEGV)")))
      << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(Hangs +ts +timeout)"))) << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(ThrowsInForward +ts +eager_fail_to_run)")))
      << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(GoodModel +ts +\d+\.\d{3}x.* p=)"))) << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(LinearModel +ts +\d+\.\d{3}x.* p=)"))) << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(\| geomean +\|)"))) << out;

  size_t records = 0;
  auto statuses = csv_statuses(csv, &records);
  EXPECT_EQ(records, 10u);
  for (const char* backend : {"eager", "ts"}) {
    EXPECT_EQ(statuses["GoodModel"][backend], "pass");
    EXPECT_EQ(statuses["LinearModel"][backend], "pass");
    EXPECT_EQ(statuses["Segfaults"][backend], "crash");
    EXPECT_EQ(statuses["Hangs"][backend], "timeout");
    EXPECT_EQ(statuses["ThrowsInForward"][backend], "eager_fail_to_run");
  }
}

TEST_F(Robustness, AbortOutOfMemoryAndUnknownClassAreRows) {
  // A memory limit makes AllocatesForever fail fast instead of eating the machine.
  const std::string command = "ulimit -v 16000000 && exec '" +
                              std::string(testing::tracebench_binary()) + "' --performance -n 2 '" +
                              bad("Aborts") + "' '" + bad("AllocatesForever") + "' '" +
                              bad("NoSuchClass") + "' '" + bad("GoodModel") + "'";
  auto result = run_command({"bash", "-c", command});
  // The whole suite ran, then the bad input (a class that does not exist) is
  // the exit code, with the fix on the last line.
  ASSERT_EQ(result.exit_code, 2) << result.output;
  EXPECT_TRUE(std::regex_search(
      result.output,
      std::regex(R"(tracebench: error: 1 model\(s\) failed to load \(NoSuchClass\); fix them)")))
      << result.output;
  EXPECT_TRUE(
      std::regex_search(result.output, std::regex(R"(Aborts +crash: killed by signal SIGABRT)")))
      << result.output;
  EXPECT_TRUE(std::regex_search(result.output, std::regex(R"(AllocatesForever +OOM)")))
      << result.output;
  EXPECT_TRUE(std::regex_search(
      result.output, std::regex(R"(NoSuchClass +model_fail_to_load: .*registered: GoodModel)")))
      << result.output;
  EXPECT_TRUE(std::regex_search(result.output, std::regex(R"(GoodModel +\d+\.\d{3}x)")))
      << result.output;
}

// One model that fails to load: the run's error is its one line, and the
// reports still get its rows, as in a suite.
TEST(RobustnessCli, ASingleModelThatFailsToLoadStillWritesItsRows) {
  const auto csv = testing::process_temp_path("fail_to_load.csv");
  const auto json = testing::process_temp_path("fail_to_load.json");
  const auto result =
      tracebench({"--performance", "--backend=eager,ts",
                  "--only=path:" + testing::source_path("tests/data/odd_models.py").string() +
                      ",class:NoExampleInputs",
                  "--output", csv.string(), "--json", json.string()});
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("pass --input-shapes"), std::string::npos) << result.output;
  std::ifstream in(csv);
  const auto records = parse_csv(
      std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
  ASSERT_EQ(records.size(), 3u) << result.output;  // the header and one row per backend
  const auto status =
      std::find(records[0].begin(), records[0].end(), "status") - records[0].begin();
  for (size_t i = 1; i < records.size(); ++i) {
    EXPECT_EQ(records[i].at(status), "model_fail_to_load");
  }
  std::ifstream json_in(json);
  const std::string report((std::istreambuf_iterator<char>(json_in)),
                           std::istreambuf_iterator<char>());
  EXPECT_NE(report.find("model_fail_to_load"), std::string::npos) << report.substr(0, 500);
}

// Numbers aside, an isolated run prints what an in-process run prints.
TEST_F(Robustness, ConsoleOutputMatchesInProcessRun) {
  const std::vector<std::string> args = {
      "--performance",   "--backend=eager,ofi", "-n", "2", "--only=LinearModel",
      bad("ReturnsNaN"), bad("ThrowsInForward")};
  auto isolated = tracebench(args);
  auto in_process_args = args;
  in_process_args.push_back("--no-isolation");
  auto in_process = tracebench(in_process_args);
  ASSERT_EQ(isolated.exit_code, 0) << isolated.output;
  ASSERT_EQ(in_process.exit_code, 0) << in_process.output;
  const std::regex numbers(R"(\d+\.\d+)");
  EXPECT_EQ(std::regex_replace(isolated.output, numbers, "N"),
            std::regex_replace(in_process.output, numbers, "N"));
  EXPECT_NE(isolated.output.find("eager output holds NaN or Inf"), std::string::npos)
      << isolated.output;
}

pid_t spawn_quietly(const std::vector<std::string>& argv) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

size_t line_count(const std::filesystem::path& path) {
  const std::string text = read_all(path);
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST_F(Robustness, KillNineLeavesWholeRowsAndResumeFinishes) {
  const auto csv = temp_file("killed.csv");
  const std::vector<std::string> args = {testing::tracebench_binary(),
                                         "--performance",
                                         "--backend=eager,ts",
                                         "-n",
                                         "20",
                                         "--only=LinearModel",
                                         "--only=small_convnet",
                                         bad("GoodModel"),
                                         bad("ReturnsNaN"),
                                         "--output",
                                         csv.string()};
  const pid_t pid = spawn_quietly(args);
  ASSERT_GT(pid, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  while (line_count(csv) < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(kill(pid, SIGKILL), 0);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));

  const std::string text = read_all(csv);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  size_t records = 0;
  auto before = csv_statuses(csv, &records);
  EXPECT_GE(records, 1u);  // at least the first model's first row
  EXPECT_LT(records, 8u);  // killed before the end

  auto resume_args = std::vector<std::string>(args.begin() + 1, args.end());
  resume_args.push_back("--resume");
  auto resumed = tracebench(resume_args);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("rows already in"), std::string::npos) << resumed.output;
  size_t all = 0;
  auto after = csv_statuses(csv, &all);
  EXPECT_EQ(all, 8u);
  for (const char* model : {"LinearModel", "small_convnet", "GoodModel", "ReturnsNaN"}) {
    for (const char* backend : {"eager", "ts"}) {
      EXPECT_EQ(after[model][backend], "pass") << model << " " << backend;
    }
  }
  // Rows from before the kill are kept as they were, not rerun.
  for (const auto& [model, backends] : before) {
    for (const auto& [backend, status] : backends) EXPECT_EQ(after[model][backend], status);
  }

  // Resuming a finished run runs nothing.
  auto again = tracebench(resume_args);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  size_t still = 0;
  csv_statuses(csv, &still);
  EXPECT_EQ(still, 8u);
}

TEST(RobustnessCli, ExamplePluginFromSource) {
  const std::string plugin =
      testing::source_path("examples/plugins/inference_mode_backend.cpp").string();
  auto result =
      tracebench({"--performance", "--backend-plugin", plugin, "--backend=eager,inference_mode",
                  "-k", "small_convnet", "-k", "^Linear", "-n", "3", "--batch-size", "2"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* model : {"small_convnet", "LinearModel"}) {
    EXPECT_TRUE(std::regex_search(
        result.output, std::regex(std::string(model) + R"( +inference_mode +\d+\.\d{3}x.* p=)")))
        << model << "\n"
        << result.output;
  }
  auto listed = tracebench({"--backend-plugin", plugin, "list"});
  EXPECT_NE(listed.output.find("inference_mode"), std::string::npos) << listed.output;
}

// A backend that kills its process costs its own row only: the model runs
// again without it, so eager and ofi are still measured. One model alone is
// isolated too (the seed's own command).
TEST(RobustnessCli, CrashingBackendCostsOnlyItsRow) {
  const std::string plugin = testing::source_path("tests/data/crashing_backends.cpp").string();
  for (const std::string crashing : {"aborts_in_compile", "segfaults_in_run"}) {
    auto result =
        tracebench({"--performance", "--backend-plugin", plugin,
                    "--backend=eager," + crashing + ",ofi", "--only=LinearModel", "-n", "3"});
    ASSERT_EQ(result.exit_code, 0) << result.output;
    const std::string& out = result.output;
    for (const char* measured : {"eager", "ofi"}) {
      EXPECT_TRUE(std::regex_search(
          out, std::regex(std::string("LinearModel +") + measured + R"( +\d+\.\d{3}x.* p=)")))
          << measured << "\n"
          << out;
    }
    const std::string signal = crashing == "aborts_in_compile" ? "SIGABRT" : "SIGSEGV";
    const std::string phase = crashing == "aborts_in_compile" ? "compiling" : "running";
    EXPECT_TRUE(std::regex_search(
        out, std::regex("LinearModel +" + crashing + " +crash: killed by signal " + signal +
                        R"( \(.*\) while )" + phase + " " + crashing)))
        << out;
    EXPECT_NE(out.find("--backend=" + crashing + " --no-isolation"), std::string::npos) << out;
  }
  // The glog-style last word is the row's reason.
  auto aborted = tracebench({"--performance", "--backend-plugin", plugin,
                             "--backend=aborts_in_compile", "--only=LinearModel", "-n", "2"});
  EXPECT_NE(aborted.output.find("Check failed: on purpose"), std::string::npos) << aborted.output;
}

// --timeout covers loading: a .py class whose constructor never returns is
// killed with its exporter, and the run ends with a timeout row.
TEST(RobustnessCli, TimeoutCoversLoadingOneModel) {
  const auto started = std::chrono::steady_clock::now();
  auto result =
      tracebench({"--performance", "--timeout", "8",
                  "--only=path:" + testing::source_path("tests/data/odd_models.py").string() +
                      ",class:HangsInConstructor"});
  const auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_LT(seconds, 60) << result.output;
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(std::regex_search(
      result.output, std::regex(R"(HangsInConstructor +timeout: .*while loading the model)")))
      << result.output;
}

TEST(RobustnessCli, BadFlagsNameTheFix) {
  auto no_output = tracebench({"--performance", "--resume", "-k", "^Linear"});
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_NE(no_output.output.find("--resume needs --output"), std::string::npos)
      << no_output.output;
  auto zero_timeout = tracebench({"--performance", "--timeout", "0", "-k", "^Linear"});
  EXPECT_EQ(zero_timeout.exit_code, 2);
  EXPECT_NE(zero_timeout.output.find("--timeout must be more than 0"), std::string::npos);
  auto bad_plugin =
      tracebench({"--performance", "--backend-plugin",
                  testing::source_path("tests/data/make_scripted_archive.py").string()});
  EXPECT_EQ(bad_plugin.exit_code, 2);
  EXPECT_NE(bad_plugin.output.find(".so"), std::string::npos) << bad_plugin.output;
  auto not_a_plugin = tracebench({"--performance", "--backend-plugin",
                                  testing::source_path("tests/data/broken_model.cpp").string()});
  EXPECT_EQ(not_a_plugin.exit_code, 2);
  EXPECT_NE(not_a_plugin.output.find("does not compile"), std::string::npos);
}

}  // namespace
}  // namespace tracebench
