// End-to-end: --shape-set times each sample at a drawn shape, gives each
// shape's median, lets lazy_trace_once's retraces show, and checks accuracy
// at every shape.

#include <gtest/gtest.h>
#include <torch/version.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "tracebench_cli.h"
#include "util/text.h"

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
// run at every batch of the set. BERT counts its tokens' positions rather
// than reading their length, so its traces run at every sequence length too.
TEST(ShapeSets, TheZoosTransformerTracesRunAtEveryBatch) {
  const auto report =
      tracebench_json({"--accuracy", "--backend=ts", "-k", "timm_vision_transformer|BERT_pytorch",
                       "--shape-set", "batch=1,3"},
                      "shapes_transformers.json");
  ASSERT_EQ(report["rows"].size(), 2u);
  for (const auto& row : report["rows"]) EXPECT_EQ(row["status"], "pass") << row;

  // Lengths at batch 1: at the zoo's batch BERT's fp64 reference alone took a
  // minute of this test's 1.5 on two cores, and the lengths are what it checks.
  const auto lengths =
      tracebench_json({"--accuracy", "--backend=ts,lazy_trace_once,onnxruntime", "-k",
                       "BERT_pytorch", "--batch-size", "1", "--shape-set", "dim1=16,32"},
                      "shapes_bert_lengths.json");
  ASSERT_EQ(lengths["rows"].size(), 3u);
  for (const auto& row : lengths["rows"]) EXPECT_EQ(row["status"], "pass") << row;
}

TEST(ShapeSets, AccuracyIsCheckedAtEveryShape) {
  const auto report = tracebench_json({"--accuracy", "--backend=ts,ofi,lazy_trace_once", "-k",
                                       "^Linear", "--shape-set", "batch=1,3"},
                                      "shapes_accuracy.json");
  ASSERT_EQ(report["rows"].size(), 3u);
  for (const auto& row : report["rows"]) EXPECT_EQ(row["status"], "pass") << row;
}

// The JSON rows of `backends` (comma-separated) on a model file of the tests
// under `shape_set`, by backend: one run for all of them, which loads and
// exports the model once.
std::map<std::string, nlohmann::json> rows_under_shape_set(const std::string& backends,
                                                           const std::string& shape_set,
                                                           const std::string& file,
                                                           const std::string& model_class) {
  auto report = tracebench_json(
      {"--performance", "--backend=" + backends, "-n", "6", "--shape-set", shape_set,
       "--only=path:" + testing::source_path(file).string() + ",class:" + model_class},
      "shapes_" + model_class + ".json");
  std::map<std::string, nlohmann::json> rows;
  for (const auto& row : report["rows"]) rows[row["backend"]] = row;
  EXPECT_EQ(rows.size(), split(backends, ',').size()) << report;
  return rows;  // a backend without a row gives null: the test's checks then fail
}

std::map<std::string, nlohmann::json> at_batch_2_and_4(const std::string& backends,
                                                       const std::string& file,
                                                       const std::string& model_class) {
  return rows_under_shape_set(backends, "batch=2,4", file, model_class);
}

constexpr const char* kOddModels = "tests/data/odd_models.py";
// Its shape-bound models read their batch in C++.
constexpr const char* kBadModels = "tests/data/bad_models.cpp";

// A model from a Python file runs its own graph under --shape-set, frozen
// (tracebench/tracing.h's inference_graph), where a C++ trace of it would fix
// the sizes Python's tracer recorded: the GPT file builds its positions and
// mask from the input's length, and ComputesWithItsBatch its output's shape
// from its batch. Both fail at the set's other shape when traced again in C++.
// ofi_bf16 gives that graph autocast's casts with the JIT's autocast pass.
// On 2.x the exports (python/traced_exporter.py) keep those sizes symbolic:
// the GPT's example is at its block size, where slicing its mask takes all of
// it, which torch.export took for the only length; aot_inductor then gave the
// example's shape at every length.
TEST(ShapeSets, AModelFromPythonRunsItsOwnGraphAtEveryShape) {
  std::string backends = "ts,ofi,ofi_bf16,lazy_trace_once,onnxruntime";
  if (TORCH_VERSION_MAJOR >= 2) backends += ",aot_inductor";
  auto gpt = rows_under_shape_set(backends, "dim1=16,32", "tests/data/user_models/gpt/gpt_lm.py",
                                  "GPTLanguageModel");
  auto batch = at_batch_2_and_4(backends, kOddModels, "ComputesWithItsBatch");
  for (const auto& backend : split(backends, ',')) {
    EXPECT_EQ(gpt[backend]["status"], "pass") << backend << ": " << gpt[backend];
    EXPECT_EQ(gpt[backend]["shape_latency_ms"].size(), 2u) << backend << ": " << gpt[backend];
    EXPECT_EQ(batch[backend]["status"], "pass") << backend << ": " << batch[backend];
  }
}

// ScalesByItsBatch reads its batch in C++, which every trace of it holds as a
// constant: each graph runs at batch 4 and is wrong there. The rows must say
// so rather than pass on their speed.
TEST(ShapeSets, ABackendWrongAtAnotherShapeDoesNotPass) {
  auto rows = at_batch_2_and_4("ofi,openvino", kBadModels, "ScalesByItsBatch");
  for (const std::string backend : {"ofi", "openvino"}) {
    const auto& row = rows[backend];
    EXPECT_EQ(row["status"], "fail_accuracy") << row;
    EXPECT_NE(row["error"].get<std::string>().find("outputs differ from eager at batch=4"),
              std::string::npos)
        << row;
  }
}

// A graph that holds the example's batch as a constant where it shapes a
// tensor fails at another batch of the set; the row says at which, in both
// modes, and why such a trace fails.
TEST(ShapeSets, ATraceThatBakesTheBatchSaysWhereItFailed) {
  const auto row = at_batch_2_and_4("ts", kBadModels, "ReshapesByItsBatch")["ts"];
  EXPECT_EQ(row["status"], "fail_to_run") << row;
  const std::string error = row["error"];
  EXPECT_EQ(error.rfind("at batch=4 of --shape-set: ", 0), 0u) << row;
  EXPECT_NE(error.find("holds the example's sizes as constants"), std::string::npos) << row;

  const auto checked = tracebench_json(
      {"--accuracy", "--backend=ts", "--shape-set", "batch=2,4",
       "--only=path:" + testing::source_path(kBadModels).string() + ",class:ReshapesByItsBatch"},
      "shapes_accuracy_baked.json");
  ASSERT_EQ(checked["rows"].size(), 1u);
  EXPECT_EQ(checked["rows"][0]["status"], "fail_to_run") << checked;
  EXPECT_EQ(checked["rows"][0]["error"].get<std::string>().rfind("at batch=4 of --shape-set: ", 0),
            0u)
      << checked;
}

// auto checks its candidates at every shape of the set, so that it picks one
// that is right at each: of ScalesByItsBatch's, only eager is.
TEST(ShapeSets, AutoChoosesOnEveryShape) {
  const auto row = at_batch_2_and_4("auto", kBadModels, "ScalesByItsBatch")["auto"];
  ASSERT_EQ(row["status"], "pass") << row;
  EXPECT_EQ(row["chosen"], "eager") << row;
  bool said = false;
  for (const auto& warning : row["warnings"]) {
    said = said || warning["message"].get<std::string>().find(
                       "ofi fails the accuracy rule at shape 2 of the 2") != std::string::npos;
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
