// End-to-end: --shape-set times each sample at a drawn shape, gives each
// shape's median, lets lazy_trace_once's retraces show, and checks accuracy
// at every shape.

#include <gtest/gtest.h>
#include <torch/version.h>
#include <nlohmann/json.hpp>

#include "tracebench_cli.h"

namespace tracebench {
namespace {

using testing::expect_usage_error;
using testing::tracebench_json;

// LinearModel's example inputs are a batch of 2: lazy_trace_once traces that
// on its first call, then each new batch size of the set once more. The CSV
// the markdown and the HTML carry the medians and the graphs too. On 2.x torch.compile
// runs the same draws and counts dynamo's graphs.
TEST(ShapeSets, EachShapeHasItsMedianAndTheLazyTraceItsRetraces) {
  const auto csv = testing::process_temp_path("shapes.csv");
  const auto markdown = testing::process_temp_path("shapes.md");
  const auto html = testing::process_temp_path("shapes.html");
  std::string backends = "--backend=ts,lazy_trace_once";
  if (TORCH_VERSION_MAJOR >= 2) backends += ",torch_compile";
  const auto report = tracebench_json(
      {"--performance", backends, "-k", "^Linear", "-n", "15", "--shape-set", "batch=1,4,8",
       "--output", csv.string(), "--markdown", markdown.string(), "--html", html.string()},
      "shapes.json");
  EXPECT_EQ(report["config"]["shape_set"], "batch=1,4,8");
  ASSERT_EQ(report["rows"].size(), TORCH_VERSION_MAJOR >= 2 ? 3u : 2u);
  for (const auto& row : report["rows"]) {
    ASSERT_EQ(row["status"], "pass") << row;
    const auto& medians = row["shape_latency_ms"];
    ASSERT_EQ(medians.size(), 3u) << row;
    double drawn = 0;  // each shape's sample count, which together are the row's
    for (const char* shape : {"batch=1", "batch=4", "batch=8"}) {
      EXPECT_GT(medians.value(shape, 0.0), 0.0) << shape << ": " << row;
      drawn += row["counters"].value(std::string("samples_at.") + shape, 0.0);
    }
    EXPECT_EQ(drawn, row["samples"].get<double>()) << row;
  }
  // TorchScript's executor specializes inside, uncounted: no figure, not a 0.
  EXPECT_TRUE(report["rows"][0]["graphs"].is_null()) << report["rows"][0];
  const auto& lazy = report["rows"][1];
  ASSERT_EQ(lazy["backend"], "lazy_trace_once");
  EXPECT_EQ(lazy["counters"]["retraces"], 3) << lazy;
  EXPECT_GT(lazy["counters"]["replays"], 0) << lazy;
  EXPECT_EQ(lazy["graphs"], 4) << lazy;
  EXPECT_GT(lazy["graph_compile_s"].get<double>(), 0.0) << lazy;
  if (TORCH_VERSION_MAJOR >= 2) {
    const auto& compiled = report["rows"][2];
    EXPECT_GE(compiled["graphs"].get<double>(), 1.0) << compiled;
    EXPECT_GT(compiled["graph_compile_s"].get<double>(), 0.0) << compiled;
  }

  const std::string csv_text = testing::read_file(csv);
  EXPECT_NE(csv_text.find(",shape_latency,graphs,graph_compile_s"), std::string::npos) << csv_text;
  EXPECT_NE(csv_text.find("batch=1:"), std::string::npos) << csv_text;
  const std::string markdown_text = testing::read_file(markdown);
  EXPECT_NE(markdown_text.find("| per-shape ms | graphs |"), std::string::npos) << markdown_text;
  EXPECT_NE(markdown_text.find("| batch 1:"), std::string::npos) << markdown_text;
  // The HTML table shows the medians by default, narrowly: "batch 1:0.005 4:0.009 8:0.012".
  const std::string html_text = testing::read_file(html);
  const size_t label = html_text.find(">per-shape ms</label>");
  ASSERT_NE(label, std::string::npos);
  const size_t checkbox = html_text.rfind("<input", label);
  EXPECT_NE(html_text.substr(checkbox, label - checkbox).find(" checked"), std::string::npos);
  EXPECT_NE(html_text.find(">batch 1:"), std::string::npos);
}

// The zoo's transformers split their heads by the dimensions they come from,
// not by the batch size read in C++ (which a trace bakes in): their traces
// run at every batch of the set.
TEST(ShapeSets, TheZoosTransformerTracesRunAtEveryBatch) {
  const auto report =
      tracebench_json({"--accuracy", "--backend=ts", "-k", "timm_vision_transformer|BERT_pytorch",
                       "--shape-set", "batch=1,3"},
                      "shapes_transformers.json");
  ASSERT_EQ(report["rows"].size(), 2u);
  for (const auto& row : report["rows"]) EXPECT_EQ(row["status"], "pass") << row;
}

TEST(ShapeSets, AccuracyIsCheckedAtEveryShape) {
  const auto report = tracebench_json({"--accuracy", "--backend=ts,ofi,lazy_trace_once", "-k",
                                       "^Linear", "--shape-set", "batch=1,3"},
                                      "shapes_accuracy.json");
  ASSERT_EQ(report["rows"].size(), 3u);
  for (const auto& row : report["rows"]) EXPECT_EQ(row["status"], "pass") << row;
}

// The row of `backend` on the corpus's GPT at 16 and 32 tokens.
nlohmann::json gpt_at_16_and_32_tokens(const std::string& backend) {
  auto report = tracebench_json(
      {"--performance", "--backend=" + backend, "-n", "6", "--shape-set", "dim1=16,32", "--only",
       "path:" + testing::source_path("tests/data/user_models/gpt/gpt_lm.py").string() +
           ",class:GPTLanguageModel"},
      "shapes_gpt_" + backend + ".json");
  EXPECT_EQ(report["rows"].size(), 1u);
  return report["rows"][0];  // null when there is none: the test's checks then fail
}

// The GPT file builds its positions from the input's length, which the trace
// behind the ONNX export fixes at the example's 32. On 1.13 OpenVINO then runs
// a 16-token input and returns outputs of the wrong shape: fast, and wrong, and
// the row must say so rather than pass on its speed. On 2.x torch.export keeps
// the length static and OpenVINO refuses the input.
TEST(ShapeSets, ABackendWrongAtAnotherShapeDoesNotPass) {
  const auto row = gpt_at_16_and_32_tokens("openvino");
  const std::string error = row["error"];
  if (TORCH_VERSION_MAJOR < 2) {
    EXPECT_EQ(row["status"], "fail_accuracy") << row;
    EXPECT_NE(error.find("outputs differ from eager at dim1=16"), std::string::npos) << row;
  } else {
    EXPECT_EQ(row["status"], "fail_to_run") << row;
    EXPECT_EQ(error.rfind("at dim1=16 of --shape-set: OpenVINO: ", 0), 0u) << row;
  }
}

// A trace that holds the example's batch as a constant fails at another
// batch of the set; the row says at which, and why such a trace fails.
TEST(ShapeSets, ATraceThatBakesTheBatchSaysWhereItFailed) {
  const auto report =
      tracebench_json({"--performance", "--backend=ts", "-n", "6", "--shape-set", "batch=2,4",
                       "--only=path:" + testing::source_path("tests/data/odd_models.py").string() +
                           ",class:BakesItsBatch"},
                      "bakes.json");
  ASSERT_EQ(report["rows"].size(), 1u) << report;
  const auto& row = report["rows"][0];
  EXPECT_EQ(row["status"], "fail_to_run") << row;  // eager, Python's trace, runs at both
  const std::string error = row["error"];
  EXPECT_EQ(error.rfind("at batch=4 of --shape-set: ", 0), 0u) << row;
  EXPECT_NE(error.find("holds the example's sizes as constants"), std::string::npos) << row;
}

// auto checks its candidates at every shape of the set, so that it picks
// one that is right at each, not OpenVINO's shape-baked graph of the GPT.
TEST(ShapeSets, AutoChoosesOnEveryShape) {
  const auto row = gpt_at_16_and_32_tokens("auto");
  ASSERT_EQ(row["status"], "pass") << row;
  EXPECT_NE(row["chosen"], "openvino") << row;
  const std::string dropped_openvino = TORCH_VERSION_MAJOR < 2
                                           ? "openvino fails the accuracy rule at shape 1 of the 2"
                                           : "openvino does not run the model";
  bool said = false;
  for (const auto& warning : row["warnings"]) {
    said =
        said || warning["message"].get<std::string>().find(dropped_openvino) != std::string::npos;
  }
  EXPECT_TRUE(said) << row;
}

TEST(ShapeSets, BadSetsNameTheFix) {
  expect_usage_error({"--performance", "-k", "^Linear", "--shape-set", "seq=1,2"},
                     "--shape-set seq=1,2: the axis is 'seq'; name batch or dimK");
  expect_usage_error(
      {"--performance", "-k", "^Linear", "--shape-set", "batch=1,2", "--input-pool", "2"},
      "--shape-set and --input-pool both choose each sample's inputs; give one");
  expect_usage_error({"--performance", "--training", "-k", "^Linear", "--shape-set", "batch=1,2"},
                     "--shape-set measures inference; drop --training");
}

}  // namespace
}  // namespace tracebench
