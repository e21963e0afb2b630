// Training on the lazy device (lazy_trace_everytime, lazy_trace_once) against
// eager training of an identical model: the same losses, parameters and
// gradients after several SGD steps, within float32 tolerance (rtol 1e-3,
// atol 1e-4: the LTC computation runs the same kernels, possibly reordered).

#include <gtest/gtest.h>
#include <torch/version.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "accuracy_check/training.h"
#include "backends/lazy/lazy_common.h"
#include "backends/registry.h"
#include "compiled_counters.h"
#include "lazy_tolerance.h"
#include "tracebench/error.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

using testing::counter;
using testing::flat;
using testing::kLazyAtol;
using testing::kLazyRtol;

/// A model of the zoo, seeded so that every call makes the same weights.
std::unique_ptr<Model> seeded_model(const std::string& name, int64_t batch) {
  torch::manual_seed(0);
  return find_zoo_model(name)->make(batch);
}

std::unique_ptr<TrainingIteration> training(const std::string& backend, const std::string& model,
                                            const std::vector<c10::IValue>& inputs,
                                            OptimizerKind optimizer = OptimizerKind::kSgd,
                                            Dropout dropout = Dropout::kOff) {
  CompileOptions options;
  options.mode = Mode::kTraining;
  options.example_inputs = inputs;
  auto compiler = make_backend(backend);
  // Dropout off unless asked: the backends draw its random numbers in
  // different orders, so only a run without it can be compared with eager.
  return std::make_unique<TrainingIteration>(*compiler, seeded_model(model, 2), options, optimizer,
                                             dropout);
}

#if TORCH_VERSION_MAJOR >= 2

// On 2.x the lazy backends refuse training (src/backends/lazy/lazy_training.cpp
// says why) rather than give rows that differ from eager.
TEST(LazyTraining, RefusedOnLibTorch2WithTheReason) {
  const auto inputs = seeded_model("LinearModel", 2)->example_inputs();
  for (const std::string backend : {"lazy_trace_everytime", "lazy_trace_once"}) {
    try {
      training(backend, "LinearModel", inputs);
      ADD_FAILURE() << backend << " trained on LibTorch 2.x";
    } catch (const UnsupportedModel& refused) {
      EXPECT_NE(std::string(refused.what()).find("not validated on LibTorch 2.x"),
                std::string::npos)
          << refused.what();
    }
  }
}

#else

constexpr int kIterations = 3;  // first step, first steady step, one replay

void expect_close(const std::vector<at::Tensor>& actual, const std::vector<at::Tensor>& expected,
                  const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t i = 0; i < actual.size(); ++i) {
    ASSERT_EQ(actual[i].sizes(), expected[i].sizes()) << what << " tensor " << i;
    EXPECT_TRUE(torch::allclose(actual[i], expected[i], kLazyRtol, kLazyAtol))
        << what << " tensor " << i << " max abs diff "
        << (actual[i] - expected[i]).abs().max().item<double>();
  }
}

/// Runs each iteration on the backend and on eager, comparing every step's
/// outputs and loss, then the parameters and gradients.
void expect_same_training(const std::string& backend, const std::string& model,
                          const std::vector<std::vector<c10::IValue> >& steps,
                          OptimizerKind optimizer = OptimizerKind::kSgd) {
  auto lazy = training(backend, model, steps.front(), optimizer);
  auto eager = training("eager", model, steps.front(), optimizer);
  for (size_t i = 0; i < steps.size(); ++i) {
    expect_close(flat(lazy->run(steps[i])), flat(eager->run(steps[i])),
                 backend + " " + model + " outputs and loss, step " + std::to_string(i));
  }
  expect_close(lazy->parameters_and_gradients(), eager->parameters_and_gradients(),
               backend + " " + model + " parameters and gradients");
}

std::vector<std::vector<c10::IValue> > repeated(const std::vector<c10::IValue>& inputs, int n) {
  return std::vector<std::vector<c10::IValue> >(n, inputs);
}

class LazyTrainingTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LazyTrainingTest, TraceEverytimeTrainsLikeEager) {
  const auto inputs = seeded_model(GetParam(), 2)->example_inputs();
  expect_same_training("lazy_trace_everytime", GetParam(), repeated(inputs, kIterations));
}

TEST_P(LazyTrainingTest, TraceOnceTrainsLikeEagerAndReplays) {
  const auto inputs = seeded_model(GetParam(), 2)->example_inputs();
  expect_same_training("lazy_trace_once", GetParam(), repeated(inputs, kIterations));
  auto step = training("lazy_trace_once", GetParam(), inputs);
  for (int i = 0; i < kIterations; ++i) step->run(inputs);
  // The first iteration (no gradients yet) and the steady one are traced;
  // every later call replays the steady computation.
  EXPECT_EQ(counter(*step, "traces"), 2);
  EXPECT_EQ(counter(*step, "replays"), kIterations - 2);
  EXPECT_EQ(counter(*step, "retraces"), 0);
}

// Each exercises a rewrite or a capture rule: convolutions without a bias
// (small_convnet, resnet18: the zero bias), ReLU6 (mobilenet_v2: the relu
// form), the class-token select whose backward zeroes fresh device data
// (timm_vision_transformer); LinearModel has none of them.
INSTANTIATE_TEST_SUITE_P(Zoo, LazyTrainingTest,
                         ::testing::Values("LinearModel", "small_convnet", "resnet18",
                                           "mobilenet_v2", "timm_vision_transformer"));

TEST(LazyTraining, TraceOnceRetracesOnShapeChangeAndKeepsTraining) {
  auto at_batch = [](int64_t batch) {
    return seeded_model("small_convnet", batch)->example_inputs();
  };
  const auto two = at_batch(2);
  const auto three = at_batch(3);
  expect_same_training("lazy_trace_once", "small_convnet", {two, two, two, three, two, two});
  auto step = training("lazy_trace_once", "small_convnet", two);
  for (const auto& inputs : {two, two, two, three, two}) step->run(inputs);
  EXPECT_EQ(counter(*step, "retraces"), 1);  // batch 3; batch 2 is captured already
  EXPECT_EQ(counter(*step, "replays"), 2);
}

// Performance runs keep dropout: mnasnet's in-place Dropout must not split
// the captured iteration (it is rewritten to the out-of-place op).
TEST(LazyTraining, TraceOnceReplaysWithDropoutKept) {
  const auto inputs = seeded_model("mnasnet1_0", 2)->example_inputs();
  auto step =
      training("lazy_trace_once", "mnasnet1_0", inputs, OptimizerKind::kSgd, Dropout::kKeep);
  for (int i = 0; i < kIterations; ++i) {
    const auto loss = flat(step->run(inputs)).back();
    EXPECT_TRUE(std::isfinite(loss.item<double>()));
  }
  EXPECT_EQ(counter(*step, "traces"), 2);
  EXPECT_EQ(counter(*step, "replays"), kIterations - 2);
}

TEST(LazyTraining, TraceEverytimeTrainsWithAdam) {
  const auto inputs = seeded_model("small_convnet", 2)->example_inputs();
  expect_same_training("lazy_trace_everytime", "small_convnet", repeated(inputs, kIterations),
                       OptimizerKind::kAdam);
}

TEST(LazyTraining, TraceOnceRefusesAdamWithTheFix) {
  const auto inputs = seeded_model("LinearModel", 2)->example_inputs();
  try {
    training("lazy_trace_once", "LinearModel", inputs, OptimizerKind::kAdam);
    FAIL() << "expected a UsageError";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("--optimizer sgd"), std::string::npos) << error.what();
  }
}

#endif

}  // namespace
}  // namespace tracebench
