// End-to-end: --inputs (sets saved by Python's torch.save) and --input-pool
// reach the model: the file's values, batch size and sets are the ones run.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "test_paths.h"
#include "tracebench_cli.h"
#include "util/python_interpreter.h"

namespace tracebench {
namespace {

using testing::expect_usage_error;
using testing::tracebench;
using testing::tracebench_json;

// Saves `expression` with the build's own Python's torch.save; returns the file.
std::string saved(const std::string& name, const std::string& expression) {
  const auto path = testing::process_temp_path(name).string();
  const auto result = run_command(
      {python_interpreter(), "-c",
       "import torch; torch.manual_seed(0); torch.save(" + expression + ", '" + path + "')"});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  return path;
}

// NaN inputs give NaN outputs: the file's values, and its batch of 3, are
// what LinearModel ran on (its example inputs are a batch of 2 normals).
TEST(Inputs, TheFilesTensorsAreWhatRuns) {
  const auto nan = saved("nan.pt", "(torch.full((3, 10), float('nan')),)");
  const auto report = tracebench_json(
      {"--performance", "--backend=ts", "-k", "^Linear", "-n", "3", "--inputs", nan}, "run.json");
  ASSERT_EQ(report["rows"].size(), 1u);
  const auto& row = report["rows"][0];
  EXPECT_EQ(row["batch_size"], 3);
  EXPECT_EQ(row["error"], "warning: eager output holds NaN or Inf") << row;
  EXPECT_EQ(report["config"]["inputs"], nan);
}

// A user's check of tracebench against their own Python: their weights and
// data in, each backend's outputs out (--save-outputs), and Python's model on
// the same data gives the same numbers.
TEST(Inputs, OutputsMatchPythonOnTheFilesData) {
  const auto dir = testing::process_temp_path("outputs");
  const auto weights = testing::process_temp_path("weights.pt").string();
  const auto inputs = testing::process_temp_path("inputs.pt").string();
  // The seed's LinearModel as Python writes it (state dict names as the zoo's).
  const std::string model =
      "import torch\n"
      "class LinearModel(torch.nn.Module):\n"
      "    def __init__(self):\n"
      "        super().__init__()\n"
      "        self.layers = torch.nn.Sequential(torch.nn.Linear(10, 10), torch.nn.Linear(10, "
      "10))\n"
      "    def forward(self, x):\n"
      "        return self.layers(x)\n";
  const auto setup =
      run_command({python_interpreter(), "-c",
                   model + "torch.manual_seed(1)\ntorch.save(LinearModel().state_dict(), '" +
                       weights + "')\ntorch.save((torch.randn(3, 10),), '" + inputs + "')\n"});
  ASSERT_EQ(setup.exit_code, 0) << setup.output;

  const auto report =
      tracebench_json({"--performance", "--backend=ts,ofi", "-k", "^Linear", "-n", "3", "--weights",
                       weights, "--inputs", inputs, "--save-outputs", dir.string()},
                      "run.json");
  ASSERT_EQ(report["rows"].size(), 2u);
  for (const auto& row : report["rows"]) EXPECT_EQ(row["status"], "pass") << row;

  const auto check =
      run_command({python_interpreter(), "-c",
                   model +
                       "m = LinearModel().eval()\n"
                       "m.load_state_dict(torch.load('" +
                       weights +
                       "'))\n"
                       "(x,) = torch.load('" +
                       inputs +
                       "')\n"
                       "expected = m(x).detach()\n"
                       "for backend in ('eager', 'ts', 'ofi'):\n"
                       "    got = torch.load('" +
                       dir.string() +
                       "/LinearModel.' + backend + '.pt')\n"
                       "    assert got.shape == (3, 10), got.shape\n"
                       "    torch.testing.assert_close(got, expected, rtol=1e-5, atol=1e-6)\n"
                       "print('match')\n"});
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find("match"), std::string::npos) << check.output;
}

TEST(Inputs, ADictAndAPoolOfSets) {
  const auto dict = saved("dict.pt", "{'x': torch.randn(4, 10)}");
  // The row's own status: the console's "0/1 pass" holds "pass" too.
  const auto accuracy = tracebench_json(
      {"--accuracy", "--backend=ts", "-k", "^Linear", "--inputs", dict}, "accuracy.json");
  ASSERT_EQ(accuracy["rows"].size(), 1u);
  EXPECT_EQ(accuracy["rows"][0]["status"], "pass") << accuracy["rows"][0];

  const auto pool = saved("pool.pt", "[(torch.randn(5, 10),) for _ in range(3)]");
  const auto report = tracebench_json({"--performance", "--backend=ts", "-k", "^Linear", "-n", "4",
                                       "--inputs", pool, "--input-pool", "2"},
                                      "run.json");
  ASSERT_EQ(report["rows"].size(), 1u);
  EXPECT_EQ(report["rows"][0]["status"], "pass") << report["rows"][0];
  EXPECT_EQ(report["rows"][0]["batch_size"], 5);
  EXPECT_EQ(report["config"]["input_pool"], 2);

  expect_usage_error({"--performance", "--backend=ts", "-k", "^Linear", "-n", "2", "--inputs", pool,
                      "--input-pool", "4"},
                     "--input-pool 4 asks for more input sets than " + pool + " holds (3)");
}

TEST(Inputs, GeneratedPoolRuns) {
  const auto report = tracebench_json(
      {"--performance", "--backend=ts", "-k", "^Linear", "-n", "4", "--input-pool", "3"},
      "run.json");
  ASSERT_EQ(report["rows"].size(), 1u);
  EXPECT_EQ(report["rows"][0]["status"], "pass") << report["rows"][0];
}

TEST(Inputs, FilesThatDoNotFitNameTheFix) {
  const std::vector<std::string> run = {"--performance", "-k", "^Linear", "--inputs"};
  auto with = [&run](const std::string& file) {
    auto args = run;
    args.push_back(file);
    return args;
  };
  expect_usage_error(with(saved("long.pt", "(torch.zeros(2, 10, dtype=torch.long),)")),
                     "input 0 is Long, but LinearModel's example input is Float");
  expect_usage_error(with(saved("two.pt", "(torch.zeros(2, 10), torch.zeros(2, 10))")),
                     "holds 2 tensor(s), but LinearModel takes 1");
  expect_usage_error(with(saved("scalar.pt", "3")), "neither a tuple, list or dict of tensors");
  expect_usage_error(with("/no/such.pt"), "--inputs /no/such.pt: no such file");
}

}  // namespace
}  // namespace tracebench
