// The built-in backends compute what eager computes (the reduced-precision
// ones within their rule), and ofi, int8_dynamic, onednn_linear and xnnpack
// really rewrite the graph.

#include <gtest/gtest.h>

#include <algorithm>

#include "accuracy/accuracy_budget.h"
#include "accuracy/tolerance.h"
#include "backends/graph/frozen_graph.h"
#include "backends/registry.h"
#include "compiled_counters.h"
#include "measure/environment.h"
#include "tracebench/tracing.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

using testing::counter;

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
  std::unique_ptr<CompiledModel> compiled;
  try {
    compiled = make_backend(backend_name)->compile(*model, options);
  } catch (const UnsupportedBuild& missing) {  // xnnpack where LibTorch has no XNNPACK (PyPI's)
    GTEST_SKIP() << missing.what();
  }
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
                         ::testing::Combine(::testing::Values("eager", "ts", "ofi", "xnnpack",
                                                              "onednn_linear"),
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

// rms(actual - expected) / rms(expected).
double relative_rms_error(const torch::Tensor& actual, const torch::Tensor& expected) {
  const auto e = expected.to(torch::kDouble);
  return ((actual.to(torch::kDouble) - e).pow(2).mean().sqrt() / e.pow(2).mean().sqrt())
      .item<double>();
}

struct ReducedCase {
  const char* backend;
  const char* model;
  double within;  // the backend's relative rule in accuracy/tolerance.cpp
};

class ReducedPrecisionBackends : public ::testing::TestWithParam<ReducedCase> {};

// Close to eager, not equal to it, and in the model's own dtype.
TEST_P(ReducedPrecisionBackends, CloseToEagerInFloat32) {
  const auto& param = GetParam();
  torch::NoGradGuard no_grad;
  auto model = inference_model(param.model, 2);
  const auto inputs = model->example_inputs();
  const auto expected = model->forward(inputs).toTensor();
  CompileOptions options;
  options.example_inputs = inputs;
  auto compiled = make_backend(param.backend)->compile(*model, options);
  for (int call = 0; call < 3; ++call) {
    const auto actual = compiled->run(inputs).toTensor();
    ASSERT_EQ(actual.scalar_type(), torch::kFloat);
    const double error = relative_rms_error(actual, expected);
    EXPECT_LT(error, param.within) << param.backend << " on " << param.model;
    EXPECT_GT(error, 0) << param.backend << " computed in float32 after all";
  }
}

INSTANTIATE_TEST_SUITE_P(Bf16AndInt8, ReducedPrecisionBackends,
                         ::testing::Values(ReducedCase{"ofi_bf16", "small_convnet", 2e-2},
                                           ReducedCase{"ofi_bf16", "LinearModel", 2e-2},
                                           ReducedCase{"int8_dynamic", "LinearModel", 5e-2},
                                           ReducedCase{"int8_dynamic", "small_convnet", 5e-2}));

TEST(Int8Dynamic, QuantizesEveryLinearLayer) {
  auto model = inference_model("LinearModel", 2);
  CompileOptions options;
  options.example_inputs = model->example_inputs();
  auto compiled = make_backend("int8_dynamic")->compile(*model, options);
  EXPECT_EQ(counter(*compiled, kInt8LinearsCounter), 2);  // two Linear(10, 10)
  // Machines differ: without VNNI the row says its activations got 7 bits.
  const auto warnings = compiled->warnings();
  const bool reduced = std::any_of(warnings.begin(), warnings.end(), [](const BackendWarning& w) {
    return w.code == "int8_reduced_range";
  });
  EXPECT_EQ(reduced, !has_native_int8_dot(this_cpu_kernel_flags()));
}

// Linears with at least 8 rows go to oneDNN, exactly; fewer stay on BLAS.
TEST(OnednnLinear, RunsLinearsWithEnoughRowsInOnednn) {
  torch::NoGradGuard no_grad;
  for (const auto& [batch, expected_linears] : {std::pair{8, 2}, std::pair{2, 0}}) {
    auto model = inference_model("LinearModel", batch);
    CompileOptions options;
    options.example_inputs = model->example_inputs();
    auto compiled = make_backend("onednn_linear")->compile(*model, options);
    EXPECT_EQ(counter(*compiled, kOnednnLinearsCounter), expected_linears) << "batch " << batch;
    const auto expected = model->forward(options.example_inputs).toTensor();
    for (int call = 0; call < 3; ++call) {
      EXPECT_TRUE(
          torch::allclose(compiled->run(options.example_inputs).toTensor(), expected, 1e-5, 1e-5))
          << "batch " << batch << " call " << call;
    }
  }
}

TEST(Xnnpack, PacksConvolutionsAndLinearsAndFusesTheirRelus) {
  auto model = inference_model("small_convnet", 1);
  CompileOptions options;
  options.example_inputs = model->example_inputs();
  std::unique_ptr<CompiledModel> compiled;
  try {
    compiled = make_backend("xnnpack")->compile(*model, options);
  } catch (const UnsupportedBuild& missing) {  // LibTorch without XNNPACK (PyPI's)
    GTEST_SKIP() << missing.what();
  }
  EXPECT_EQ(counter(*compiled, "xnnpack_ops"), 3);                // two conv2d, one linear
  EXPECT_EQ(counter(*compiled, "xnnpack_fused_activations"), 2);  // the relu after each conv
}

TEST(OfiBf16, WarnsExactlyWhenThisCpuEmulatesBfloat16) {
  auto model = inference_model("LinearModel", 2);
  CompileOptions options;
  options.example_inputs = model->example_inputs();
  auto compiled = make_backend("ofi_bf16")->compile(*model, options);
  const auto warnings = compiled->warnings();
  const bool native = has_native_bf16(this_cpu_kernel_flags());
  ASSERT_EQ(warnings.size(), native ? 0u : 1u);
  if (!native) {
    EXPECT_EQ(warnings[0].code, "bf16_emulated");
  }
}

// auto picks among the candidates its tolerance allows, and says what each took.
TEST(Auto, ChoosesATimedCandidateWithinItsTolerance) {
  for (const auto tolerance : {Numerics::kExact, Numerics::kInt8}) {
    torch::NoGradGuard no_grad;
    auto model = inference_model("LinearModel", 2);
    CompileOptions options;
    options.example_inputs = model->example_inputs();
    options.auto_tolerance.loosest = tolerance;
    std::vector<std::string> announced;
    options.on_auto_candidate = [&](const std::string& name) { announced.push_back(name); };
    auto compiled = make_backend("auto")->compile(*model, options);
    const auto counters = compiled->counters();
    const std::string chosen = compiled->chosen();
    // Its last step compiles the winner again, after the losers are freed.
    ASSERT_FALSE(announced.empty());
    EXPECT_EQ(announced.back(), chosen);
    EXPECT_GT(counters.count("auto_candidate_ms." + chosen), 0u) << chosen;
    EXPECT_GT(counters.count("auto_candidate_ms.eager"), 0u);
    EXPECT_EQ(counters.count("auto_runoff_candidates"), 1u);
    // int8 allows everything looser than exact, bfloat16 included.
    for (const char* reduced : {"int8_dynamic", "ofi_bf16"}) {
      EXPECT_EQ(counters.count(std::string("auto_candidate_ms.") + reduced),
                tolerance == Numerics::kInt8 ? 1u : 0u)
          << reduced;
    }
    if (tolerance == Numerics::kExact) {
      EXPECT_NE(chosen, "int8_dynamic");
      EXPECT_NE(chosen, "ofi_bf16");
    }
    // At two rows onednn_linear leaves both layers to BLAS: it is ofi, not timed twice.
    EXPECT_EQ(counters.count("auto_candidate_ms.onednn_linear"), 0u);
    const auto warnings = compiled->warnings();
    EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(), [](const BackendWarning& warning) {
      return warning.message == "onednn_linear rewrites no layer of this model, so it is ofi";
    }));
    // The winner's outputs keep the accuracy rule of its own numerics: the
    // exact rule when auto may choose only exact candidates.
    const auto expected = model->forward(options.example_inputs);
    const auto actual = compiled->run(options.example_inputs);
    const Numerics numerics = make_backend(chosen)->numerics();
    EXPECT_LE(numerics, tolerance) << chosen;
    const auto comparison =
        compare_outputs(expected, actual, c10::IValue(),
                        tolerance_for("", Mode::kInference, Precision::kFloat32, numerics), {});
    EXPECT_TRUE(comparison.same) << chosen << ": " << comparison.detail;
  }
}

// Under a budget by measure, a candidate below float32 is kept or dropped by
// its outputs' cost on the evaluation set, against the set's float32 outputs.
// The planted set's reference is eager's outputs doubled, so any candidate
// that computes the model measures 20 log10(2 / 1) = 6.02 dB against it:
// sqnr=5 keeps int8_dynamic, sqnr=7 drops it, and the row names the figure.
// (Scoring against auto's own eager outputs instead reads ~40 dB, and both
// budgets would keep it.)
TEST(Auto, KeepsACandidateBelowFloat32ByItsCostOnTheEvaluationSet) {
  torch::NoGradGuard no_grad;
  auto model = inference_model("LinearModel", 2);
  CompileOptions options;
  options.example_inputs = model->example_inputs();
  options.auto_candidates = {"eager", "int8_dynamic"};
  auto evaluation = std::make_shared<EvaluationSet>();
  evaluation->inputs = {model->example_inputs()};
  evaluation->fp32_outputs = {model->forward(model->example_inputs()).toTensor() * 2};
  options.evaluation_set = evaluation;
  const auto dropped_message = [&](const std::string& budget) {
    options.auto_tolerance = parse_accuracy_budget(budget);
    const auto compiled = make_backend("auto")->compile(*model, options);
    for (const auto& warning : compiled->warnings()) {
      if (warning.message.rfind("int8_dynamic", 0) == 0) return warning.message;
    }
    EXPECT_GT(compiled->counters().count("auto_candidate_ms.int8_dynamic"), 0u) << budget;
    return std::string();
  };
  EXPECT_EQ(dropped_message("sqnr=5"), "");
  EXPECT_EQ(dropped_message("sqnr=7"),
            "int8_dynamic fails the accuracy rule (--auto-tolerance sqnr=7): sqnr 6.0 dB is "
            "below the budget's 7");
  // Two rows of ten classes cannot show top-1 agreement: the bound is not kept.
  EXPECT_NE(dropped_message("top1=50").find("its top-1 agreement cannot be measured"),
            std::string::npos);
}

TEST(OfiBf16, NativeBfloat16MeansAvx512Bf16OrAmx) {
  EXPECT_TRUE(has_native_bf16({"avx2", "avx512f", "avx512_bf16"}));
  EXPECT_TRUE(has_native_bf16({"amx_tile", "amx_bf16"}));
  EXPECT_FALSE(has_native_bf16({"avx2", "avx512f", "avx512_vnni"}));
  EXPECT_FALSE(has_native_bf16({}));
}

}  // namespace
}  // namespace tracebench
