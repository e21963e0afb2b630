// tracebench's `ofi` must make the graph Python's three lines make:
// optimize_for_inference(freeze(trace(model, x))). Compares the node kinds (and
// how many of each) of the two optimized graphs for the same torchvision model.

#include <gtest/gtest.h>
#include <torch/script.h>

#include <map>
#include <regex>
#include <sstream>

#include "backends/graph/frozen_graph.h"
#include "test_paths.h"
#include "tracebench/tracing.h"
#include "util/python_interpreter.h"
#include "util/subprocess.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

using KindCounts = std::map<std::string, int>;

// The script's "aten::relu 2" lines; its output also holds LibTorch's warnings.
KindCounts parse_kind_counts(const std::string& text) {
  static const std::regex kLine(R"(^(\w+::\w+) (\d+)$)");
  KindCounts counts;
  std::istringstream in(text);
  std::smatch match;
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, match, kLine)) counts[match[1]] = std::stoi(match[2]);
  }
  return counts;
}

KindCounts kind_counts(const torch::jit::Graph& graph) {
  KindCounts counts;
  for (const auto* node : graph.nodes()) ++counts[node->kind().toQualString()];
  return counts;
}

std::string describe(const KindCounts& counts) {
  std::string text;
  for (const auto& [kind, count] : counts) text += kind + " " + std::to_string(count) + "\n";
  return text;
}

class OfiGraph : public ::testing::TestWithParam<std::string> {};

TEST_P(OfiGraph, SameNodeKindsAsPythonsOptimizeForInference) {
  const std::string name = GetParam();
  CommandResult reference;
  try {
    reference = run_command({python_interpreter(),
                             testing::source_path("tests/zoo/torchvision_reference.py").string(),
                             "--ofi-graph", name});
  } catch (const std::exception& error) {
    GTEST_SKIP() << "cannot start " << python_interpreter() << " (" << error.what()
                 << "); install python3-torch and python3-torchvision";
  }
  if (reference.exit_code == 3) GTEST_SKIP() << reference.output;
  ASSERT_EQ(reference.exit_code, 0) << reference.output;
  const KindCounts expected = parse_kind_counts(reference.output);

  auto model = find_zoo_model(name)->make(1);
  model->set_training(false);
  torch::NoGradGuard no_grad;
  for (auto& tensor : model->tensors()) tensor.requires_grad_(false);
  auto graph = trace_model_graph(*model, {torch::randn({1, 3, 224, 224})});
  optimize_frozen_graph(graph);
  const KindCounts actual = kind_counts(*graph);
  EXPECT_EQ(describe(actual), describe(expected)) << *graph;
}

INSTANTIATE_TEST_SUITE_P(Torchvision, OfiGraph,
                         ::testing::Values("alexnet", "resnet18", "resnet50", "resnext50_32x4d",
                                           "vgg16", "mobilenet_v2", "mnasnet1_0", "squeezenet1_1"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace tracebench
