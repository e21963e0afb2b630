// End-to-end: the real tracebench binary, run the way a user runs it.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "test_paths.h"
#include "tracebench_cli.h"
#include "util/subprocess.h"
#include "util/text.h"

namespace tracebench {
namespace {

const std::string kSource = testing::source_dir();

using testing::tracebench;
using testing::tracebench_json;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The seed's line: device, mode, model padded to 34 columns, "N.NNNx p=N.NN".
const std::regex kSeedLine(R"(^cpu  eval  LinearModel {24}\d+\.\d{3}x p=\d\.\d{2}$)");

void expect_only_the_seed_line(const CommandResult& result) {
  ASSERT_EQ(result.exit_code, 0) << result.output;
  auto lines = lines_of(result.output);
  ASSERT_EQ(lines.size(), 1u) << result.output;
  EXPECT_TRUE(std::regex_match(lines[0], kSeedLine)) << lines[0];
}

TEST(Cli, SeedCommandWithPythonFile) {
  expect_only_the_seed_line(
      tracebench({"--performance",
                  "--only=path:" + kSource + "/examples/model_collection.py,class:LinearModel",
                  "--backend=eager", "-n", "10"}));
}

TEST(Cli, SeedCommandWithCppFileAndRelativePath) {
  // Relative to the current directory, which run_command inherits: use the
  // source tree's path relative to it.
  const auto relative =
      std::filesystem::relative(kSource + "/examples/model_collection.cpp").string();
  expect_only_the_seed_line(
      tracebench({"--performance", "--only=path:" + relative + ",class:LinearModel",
                  "--backend=eager", "-n", "10"}));
}

TEST(Cli, SeveralBackendsPrintNamedLinesAndGridTable) {
  const auto csv = testing::process_temp_path("grid.csv");
  auto result = tracebench({"--performance", "--backend=eager,ts,ofi", "-k", "small_convnet", "-k",
                            "^Linear", "-n", "5", "--batch-size", "2", "--output", csv.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  for (const char* backend : {"eager", "ts", "ofi"}) {
    EXPECT_TRUE(std::regex_search(
        result.output, std::regex(std::string(R"(\ncpu  eval  small_convnet {21}\s)") + backend +
                                  R"( +\d+\.\d{3}x \[\d+\.\d{2}, \d+\.\d{2}\] p=\d\.\d{2}\n)")))
        << backend << "\n"
        << result.output;
  }
  EXPECT_TRUE(std::regex_search(result.output, std::regex(R"(\| Model +\| eager \|)")));
  EXPECT_TRUE(std::regex_search(result.output, std::regex(R"(\| geomean +\| +\d+\.\d{3} \|)")))
      << result.output;
  EXPECT_EQ(result.output.find("resnet18"), std::string::npos);  // filtered out

  std::ifstream in(csv);
  std::string header, row;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("dev,name,batch_size,speedup,abs_latency,compilation_latency,"
                         "compression_ratio,backend,p_value",
                         0),
            0u);
  int rows = 0;
  while (std::getline(in, row)) {
    ++rows;
    EXPECT_TRUE(std::regex_search(row, std::regex(R"(^cpu,(LinearModel|small_convnet),2,)")))
        << row;
    EXPECT_NE(row.find(",pass,"), std::string::npos) << row;
  }
  EXPECT_EQ(rows, 6);  // 2 models x 3 backends
}

TEST(Cli, ListShowsModelsAndBackends) {
  auto result = tracebench({"list"});
  ASSERT_EQ(result.exit_code, 0);
  for (const char* name : {"LinearModel", "small_convnet", "resnet18", "eager", "ts", "ofi"}) {
    EXPECT_NE(result.output.find(name), std::string::npos) << name;
  }
}

TEST(Cli, HelpStatesDefaults) {
  auto result = tracebench({"--help"});
  ASSERT_EQ(result.exit_code, 0);
  EXPECT_TRUE(std::regex_search(result.output, std::regex(R"(--repeat[^\n]*\n?[^\n]*=30)")))
      << result.output;
  EXPECT_NE(result.output.find("--iterations-per-run"), std::string::npos);
  // Every option that takes a value shows its default (CLI11's `=VALUE`) or
  // says in words what happens without it.
  const std::regex takes_value(R"(^\s+(-\w,)?--[\w-]+ (TEXT|INT|UINT|FLOAT|FILE)(=\S+)?)");
  std::istringstream lines(result.output);
  int options_with_values = 0;
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (!std::regex_search(line, match, takes_value)) continue;
    ++options_with_values;
    EXPECT_TRUE(match[3].matched || line.find("(default") != std::string::npos) << line;
  }
  EXPECT_GT(options_with_values, 20);
}

// --auto-skip reaches each model's process: auto neither compiles nor times
// the candidates it names, and the run's config records them.
TEST(Cli, AutoSkipLeavesItsCandidatesOut) {
  const std::vector<std::string> skipped = {"ofi",      "onednn_linear", "xnnpack",
                                            "openvino", "onnxruntime",   "aot_inductor"};
  const auto report = tracebench_json({"--performance", "--backend=auto", "-k", "^LinearModel$",
                                       "-n", "3", "--auto-skip=" + join(skipped, ",")},
                                      "auto_skip.json");
  ASSERT_EQ(report["rows"].size(), 1u) << report;
  const auto& row = report["rows"][0];
  ASSERT_EQ(row["status"], "pass") << row;
  EXPECT_EQ(row["chosen"], "eager") << row;
  EXPECT_TRUE(row["counters"].contains("auto_candidate_ms.eager")) << row;
  for (const auto& backend : skipped) {
    EXPECT_FALSE(row["counters"].contains("auto_candidate_ms." + backend)) << backend << row;
  }
  EXPECT_EQ(report["config"]["auto_skip"], skipped) << report["config"];
}

struct BadInput {
  std::string name;  // the test's name in ctest's listing
  std::vector<std::string> args;
  std::string message;
};

// gtest prints a parameter in the test listing that ctest shows; without
// this, as 88 bytes of hex.
void PrintTo(const BadInput& input, std::ostream* out) { *out << input.name; }

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, OneLineExitTwo) {
  auto result = tracebench(GetParam().args);
  EXPECT_EQ(result.exit_code, 2) << result.output;
  auto lines = lines_of(result.output);
  ASSERT_EQ(lines.size(), 1u) << result.output;
  EXPECT_EQ(lines[0].rfind("tracebench: error: ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(GetParam().message), std::string::npos) << lines[0];
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CliBadInput,
    ::testing::Values(
        BadInput{"SpecWithoutClass", {"--performance", "--only=path:model.py"}, "add ,class:NAME"},
        BadInput{
            "SpecUnknownKey", {"--performance", "--only=path:m.py,klass:A"}, "unknown key 'klass'"},
        BadInput{"SpecEmptyPath", {"--performance", "--only=path:,class:A"}, "no file"},
        BadInput{"MissingFile",
                 {"--performance", "--only=path:/no/such/file.py,class:A"},
                 "does not exist"},
        BadInput{"UnknownModel",
                 {"--performance", "--only=no_such_model"},
                 "unknown model 'no_such_model'"},
        BadInput{"UnknownBackend",
                 {"--performance", "--backend=tensorrt"},
                 "unknown backend 'tensorrt'"},
        BadInput{"UnknownAutoSkip",
                 {"--performance", "--backend=auto", "--auto-skip=aot_inductor,tensorrt"},
                 "--auto-skip tensorrt: no such backend; choose from"},
        BadInput{"UnknownAccuracyBudget",
                 {"--performance", "--backend=auto", "--auto-tolerance=sqnr=loud"},
                 "'sqnr=loud' needs a number from 0 to 200; give exact, bf16, int8"},
        BadInput{"ZeroRepeat", {"--performance", "-n", "0"}, "--repeat must be at least 1"},
        BadInput{"NegativeBatchSize",
                 {"--performance", "--batch-size", "-3"},
                 "--batch-size must be at least 1"},
        BadInput{"CudaDevice", {"--performance", "--devices", "cuda"}, "use --devices cpu"},
        BadInput{"FilterMatchesNothing",
                 {"--performance", "-k", "zzz_nothing"},
                 "no built-in model matches"},
        BadInput{"UnwritableOutput",
                 {"--performance", "--output", "/nonexistent-dir/x.csv", "-k", "Linear"},
                 "choose a writable --output"},
        BadInput{"UnknownFlag", {"--no-such-flag"}, "see tracebench --help"},
        BadInput{"NoMode", {}, "choose a mode: --performance or --accuracy"},
        BadInput{"TwoModes", {"--performance", "--accuracy"}, "excludes"},
        BadInput{"TwoPrecisions", {"--performance", "--bfloat16", "--amp"}, "excludes"},
        BadInput{"SaveOneFileForTwoBackends",
                 {"--performance", "-k", "Linear", "--backend=ts,ofi", "--save-optimized", "m.pt"},
                 "give a directory to save one file per backend"},
        BadInput{"SaveOneFileForTwoModels",
                 {"--performance", "-k", "resnet", "--backend=ofi", "--save-optimized", "m.pt"},
                 "give a directory to save one file per model"},
        BadInput{"SaveInAccuracyMode",
                 {"--accuracy", "-k", "Linear", "--save-optimized", "out"},
                 "drop --accuracy and --training"},
        BadInput{"SaveOutputsOfASweep",
                 {"--performance", "-k", "Linear", "--batch-size", "1,2", "--save-outputs", "out"},
                 "--save-outputs saves one file per model and backend; give one --batch-size"},
        BadInput{"SaveOutputsInAnUnwritablePlace",
                 {"--performance", "-k", "Linear", "--save-outputs", "/proc/no-such/out"},
                 "--save-outputs /proc/no-such/out: cannot make the directory"},
        BadInput{"UnknownOptimizer",
                 {"--performance", "--training", "--optimizer", "lbfgs"},
                 "use --optimizer sgd or --optimizer adam"}),
    [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

TEST(Cli, AccuracyModePrintsAStatusPerRowAndThePassRate) {
  const auto csv = testing::process_temp_path("accuracy.csv");
  auto result = tracebench({"--accuracy", "--backend=eager,ofi", "-k", "small_convnet",
                            "--batch-size", "2", "--output", csv.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(
      std::regex_search(result.output, std::regex(R"(cpu  eval  small_convnet {21}\s+ofi +pass
)"))) << result.output;
  EXPECT_NE(result.output.find("accuracy: 2/2 pass"), std::string::npos) << result.output;
  std::ifstream in(csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u);  // the header, then one row per backend
  EXPECT_EQ(lines[0], "dev,name,batch_size,accuracy,backend,detail");
  EXPECT_EQ(lines[1], "cpu,small_convnet,2,pass,eager,");
  EXPECT_EQ(lines[2], "cpu,small_convnet,2,pass,ofi,");
}

// The flag reaches the isolated child that compiles the model, and auto's
// file is its winner's (tests/zoo/saved_module_test.cpp loads such files).
TEST(Cli, SaveOptimizedWritesOneFilePerModelAndBackend) {
  const auto dir = testing::process_temp_path("saved");
  std::filesystem::remove_all(dir);
  auto result = tracebench({"--performance", "--backend=ts,auto", "-k", "LinearModel", "-n", "3",
                            "--warnings", "--save-optimized", dir.string()});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "LinearModel.ts.pt")) << result.output;
  // auto may pick eager on so small a model: then the row says why there is no file.
  EXPECT_NE(std::filesystem::exists(dir / "LinearModel.auto.pt"),
            result.output.find("auto: --save-optimized: eager has no TorchScript form") !=
                std::string::npos)
      << result.output;
  std::filesystem::remove_all(dir);
}

TEST(Cli, TrainingPrintsTrainLinesAndMarksUnsupportedBackends) {
  auto result = tracebench({"--performance", "--training", "--backend=eager,ts,ofi", "-k",
                            "small_convnet", "--batch-size", "2", "-n", "3"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(std::regex_search(result.output,
                                std::regex(R"(cpu  train small_convnet {21}\s+ts +\d+\.\d{3}x)")))
      << result.output;
  EXPECT_NE(result.output.find("unsupported: ofi does not support --training"), std::string::npos);
}

// ofi_bf16 too: its outputs must come back in the dtype the model returns
// under each precision (bfloat16 here), or the run marks it fail_accuracy.
TEST(Cli, Bfloat16AndAmpRun) {
  for (const std::string precision : {"--bfloat16", "--amp"}) {
    const auto report = tracebench_json({"--performance", precision, "--backend=eager,ts,ofi_bf16",
                                         "-k", "small_convnet", "--batch-size", "2", "-n", "3"},
                                        "precision" + precision + ".json");
    ASSERT_EQ(report["rows"].size(), 3u) << precision;
    for (const auto& row : report["rows"]) {
      EXPECT_EQ(row["status"], "pass") << precision << ": " << row["backend"] << " " << row;
    }
  }
}

TEST(Cli, UnknownClassInPythonFileIsOneLine) {
  auto result = tracebench(
      {"--performance", "--only=path:" + kSource + "/examples/model_collection.py,class:Nope"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(lines_of(result.output).size(), 1u) << result.output;
  EXPECT_NE(result.output.find("LinearModel"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace tracebench
