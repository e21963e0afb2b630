// The built-in backends compute what eager computes, and ofi really applies
// the frozen-graph optimizations.

#include <gtest/gtest.h>

#include "backends/frozen_graph.h"
#include "backends/registry.h"
#include "tracebench/tracing.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

std::unique_ptr<Model> inference_model(const std::string& name, int64_t batch) {
  torch::manual_seed(0);
  auto model = find_zoo_model(name)->make(batch);
  model->set_training(false);
  for (auto& t : model->tensors()) t.requires_grad_(false);
  return model;
}

class BackendsMatchEager : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(BackendsMatchEager, SameOutputs) {
  const auto& [backend_name, model_name] = GetParam();
  torch::NoGradGuard no_grad;
  auto model = inference_model(model_name, 2);
  auto inputs = model->example_inputs();
  const auto expected = model->forward(inputs).toTensor();
  CompileOptions options;
  options.example_inputs = inputs;
  auto compiled = make_backend(backend_name)->compile(*model, options);
  for (int call = 0; call < 3; ++call) {  // the profiling executor optimizes after a few calls
    const auto actual = compiled->run(inputs).toTensor();
    EXPECT_TRUE(torch::allclose(actual, expected, 1e-4, 1e-4))
        << backend_name << " on " << model_name << " call " << call << " max diff "
        << (actual - expected).abs().max().item<float>();
  }
  // A new input (same shape) must give a new, correct answer: nothing is baked in.
  auto other = std::vector<c10::IValue>{torch::randn_like(inputs[0].toTensor())};
  EXPECT_TRUE(torch::allclose(compiled->run(other).toTensor(), model->forward(other).toTensor(),
                              1e-4, 1e-4));
}

INSTANTIATE_TEST_SUITE_P(AllBuiltIns, BackendsMatchEager,
                         ::testing::Combine(::testing::Values("eager", "ts", "ofi"),
                                            ::testing::Values("LinearModel", "small_convnet")));

TEST(Tracing, ParametersBecomeConstantsAndInputsStayInputs) {
  auto model = inference_model("small_convnet", 1);
  auto graph = trace_model_graph(*model, model->example_inputs());
  EXPECT_EQ(graph->inputs().size(), 1u);
  EXPECT_EQ(graph->outputs().size(), 1u);
}

TEST(Tracing, RefusesParametersThatRequireGrad) {
  torch::manual_seed(0);
  auto model = find_zoo_model("LinearModel")->make(2);
  EXPECT_THROW(trace_model_graph(*model, model->example_inputs()), c10::Error);
}

TEST(OptimizeForInference, FoldsBatchNormAndConvertsToOneDnn) {
  auto model = inference_model("small_convnet", 1);
  auto graph = trace_model_graph(*model, model->example_inputs());
  EXPECT_NE(graph->toString().find("batch_norm"), std::string::npos);
  optimize_frozen_graph(graph);
  const std::string optimized = graph->toString();
  EXPECT_EQ(optimized.find("batch_norm"), std::string::npos) << optimized;
  EXPECT_NE(optimized.find("mkldnn"), std::string::npos) << optimized;
}

}  // namespace
}  // namespace tracebench
