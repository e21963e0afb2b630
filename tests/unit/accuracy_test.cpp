// Accuracy mode: the pass rule on constructed tensors, a backend that
// computes something slightly wrong, a non-deterministic model, training parity.

#include <gtest/gtest.h>

#include <random>

#include "accuracy/output_comparison.h"
#include "accuracy/tolerance.h"
#include "accuracy_check/accuracy.h"
#include "accuracy_check/training.h"
#include "backends/registry.h"
#include "performance/performance.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

const c10::IValue kNoReference;

TEST(PassRule, AllcloseWithinTolerancePasses) {
  auto expected = torch::ones({4});
  EXPECT_TRUE(compare_outputs(expected, expected + 5e-5, kNoReference, {1e-4, 2, false}).same);
  EXPECT_FALSE(compare_outputs(expected, expected + 5e-3, kNoReference, {1e-4, 2, false}).same);
}

TEST(PassRule, Fp64RmseRuleForgivesBackendsNoWorseThanEager) {
  auto truth = torch::zeros({100}, torch::kFloat64);
  auto eager = torch::full({100}, 0.01f);            // eager itself is 0.01 off the truth
  auto close_backend = torch::full({100}, -0.015f);  // 0.015 off: within 2x eager
  auto far_backend = torch::full({100}, 0.05f);      // 0.05 off: beyond 2x eager
  const Tolerance tolerance{1e-4, 2.0, false};
  EXPECT_TRUE(compare_outputs(eager, close_backend, truth, tolerance).same);
  const auto far = compare_outputs(eager, far_backend, truth, tolerance);
  EXPECT_FALSE(far.same);
  EXPECT_NE(far.detail.find("rmse from fp64: backend 0.05, eager 0.01"), std::string::npos)
      << far.detail;
}

TEST(PassRule, CosineRule) {
  auto expected = torch::arange(1, 11, torch::kFloat32);
  EXPECT_TRUE(compare_outputs(expected, expected * 1.5, kNoReference, {1e-4, 2, true}).same);
  EXPECT_FALSE(compare_outputs(expected, expected.flip(0), kNoReference, {1e-4, 2, true}).same);
}

// Performance mode times a row that ran below float32 and shows its cost
// beside it: static int8 of a depthwise net keeps a cosine of about 0.975,
// which the float32 check (0.99) would fail untimed. A different computation
// (cosine under 0.9) still fails at any precision.
TEST(PassRule, PerformanceCheckIsLooserBelowFloat32) {
  torch::manual_seed(7);
  const auto expected = torch::randn({256});
  const auto noise = torch::randn({256});
  const auto lossy = expected + 0.2 * noise;    // cosine about 0.98
  const auto another = expected + 1.5 * noise;  // cosine about 0.55
  const auto cosine = [&](const at::Tensor& actual) {
    return torch::cosine_similarity(expected, actual, 0).item<double>();
  };
  ASSERT_GT(cosine(lossy), 0.95);
  ASSERT_LT(cosine(lossy), 0.99);
  ASSERT_LT(cosine(another), 0.9);
  const auto exact = performance_check_tolerance();
  const auto int8 = performance_check_tolerance(Numerics::kInt8);
  const auto bf16 = performance_check_tolerance(Numerics::kBFloat16);
  const auto failed = compare_outputs(expected, lossy, c10::IValue(), exact);
  EXPECT_FALSE(failed.same);
  EXPECT_NE(failed.detail.find("< 0.99"), std::string::npos) << failed.detail;
  EXPECT_TRUE(compare_outputs(expected, lossy, c10::IValue(), int8).same);
  EXPECT_TRUE(compare_outputs(expected, lossy, c10::IValue(), bf16).same);
  const auto different = compare_outputs(expected, another, c10::IValue(), int8);
  EXPECT_FALSE(different.same);
  EXPECT_NE(different.detail.find("< 0.90"), std::string::npos) << different.detail;
}

// Random weights can leave outputs of ~1e-14, whose direction is rounding
// noise: cosine would call two equally right backends different (EfficientNet
// under ofi gave 0.44). At the noise floor the check is absolute, and the
// leaf is named so the row can warn.
TEST(PassRule, NoiseFloorOutputsAreComparedAbsolutely) {
  const auto tolerance = performance_check_tolerance();
  const auto tiny = torch::randn({64}) * 3e-14;
  const auto other_tiny = torch::randn({64}) * 3e-14;
  EXPECT_LT(torch::cosine_similarity(tiny, other_tiny, 0).item<double>(), 0.9);
  EXPECT_TRUE(compare_outputs(tiny, other_tiny, c10::IValue(), tolerance).same);
  const auto off = compare_outputs(tiny, tiny + 0.5, c10::IValue(), tolerance);
  EXPECT_FALSE(off.same);
  EXPECT_NE(off.detail.find("at the noise floor"), std::string::npos) << off.detail;

  const auto outputs = c10::ivalue::Tuple::create({torch::ones({3}), tiny});
  EXPECT_EQ(noise_floor_output(outputs, tolerance.tol), "output[1]");
  EXPECT_EQ(noise_floor_output(torch::ones({3}), tolerance.tol), "");
}

TEST(PassRule, DtypeShapeAndStructureMustMatch) {
  auto t = torch::ones({2, 2});
  EXPECT_FALSE(compare_outputs(t, t.to(torch::kFloat64), kNoReference, {}).same);
  EXPECT_FALSE(compare_outputs(t, torch::ones({4}), kNoReference, {}).same);
  auto pair = c10::ivalue::Tuple::create({t, t});
  EXPECT_FALSE(compare_outputs(pair, t, kNoReference, {}).same);
}

TEST(PassRule, NamesTheWorstOutput) {
  auto good = torch::ones({3});
  auto expected = c10::ivalue::Tuple::create({good, good, good});
  auto actual = c10::ivalue::Tuple::create({good + 0.1, good, good + 0.5});
  const auto result = compare_outputs(expected, actual, kNoReference, {1e-4, 2, false});
  EXPECT_FALSE(result.same);
  EXPECT_EQ(result.detail.rfind("output[2]: max abs error 0.5", 0), 0u) << result.detail;
}

// Runs the eager model, then nudges every output by 1%: the kind of bug a
// compiler with a bad rewrite has.
class PerturbingBackend final : public Backend {
 public:
  std::string name() const override { return "test_perturbs"; }
  std::string description() const override { return "test only: eager outputs times 1.01"; }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions&) override {
    struct Perturbed : CompiledModel {
      explicit Perturbed(Model& m) : model(m) {}
      c10::IValue run(const std::vector<c10::IValue>& inputs) override {
        return model.forward(inputs).toTensor() * 1.01;
      }
      Model& model;
    };
    return std::make_unique<Perturbed>(model);
  }
};

LoadedModel loaded_zoo_model(const std::string& name, int64_t batch) {
  LoadedModel loaded;
  loaded.name = name;
  loaded.reload = [name, batch] {
    torch::manual_seed(7);
    return find_zoo_model(name)->make(batch);
  };
  loaded.model = loaded.reload();
  loaded.inputs = loaded.model->example_inputs();
  loaded.batch_size = batch;
  return loaded;
}

TEST(AccuracyMode, WrongBackendIsCaughtAndRightOnesPass) {
  register_backend("test_perturbs", [] { return std::unique_ptr<Backend>(new PerturbingBackend); });
  auto loaded = loaded_zoo_model("small_convnet", 2);
  RunOptions options;
  options.accuracy = true;
  options.backends = {"eager", "ts", "ofi", "test_perturbs"};
  const auto rows = check_accuracy(loaded, first_point_run(options));
  ASSERT_EQ(rows.size(), 4u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(rows[i].status, status::kPass) << rows[i].error;
  EXPECT_EQ(rows[3].status, status::kFailAccuracy);
  EXPECT_NE(rows[3].error.find("rmse from fp64"), std::string::npos) << rows[3].error;
}

TEST(PerformanceMode, RefusesASpeedupForABackendThatComputesSomethingElse) {
  // Flipping the sign leaves cosine similarity at -1: "something else".
  struct Negating : Backend {
    std::string name() const override { return "test_negates"; }
    std::string description() const override { return "test only: negated outputs"; }
    std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions&) override {
      struct Negated : CompiledModel {
        explicit Negated(Model& m) : model(m) {}
        c10::IValue run(const std::vector<c10::IValue>& inputs) override {
          return -model.forward(inputs).toTensor();
        }
        Model& model;
      };
      return std::make_unique<Negated>(model);
    }
  };
  register_backend("test_negates", [] { return std::unique_ptr<Backend>(new Negating); });
  auto loaded = loaded_zoo_model("LinearModel", 2);
  RunOptions options;
  options.backends = {"test_negates", "eager"};
  options.repeat = 3;
  const auto rows = measure_performance(loaded, first_point_run(options));
  EXPECT_EQ(rows[0].status, status::kFailAccuracy);
  EXPECT_EQ(rows[0].speedup, 0);
  EXPECT_TRUE(rows[1].passed());
}

// Adds noise from a source torch's seed does not control.
struct UnseededNoise : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    static std::random_device device;
    return x + static_cast<float>(device() % 1000) * 1e-3f;
  }
};

TEST(AccuracyMode, NonDeterministicEagerIsReportedAsSuch) {
  LoadedModel loaded;
  loaded.name = "noisy";
  loaded.reload = [] {
    return std::make_unique<NnModel<UnseededNoise>>("noisy", std::make_shared<UnseededNoise>());
  };
  loaded.model = loaded.reload();
  loaded.inputs = {torch::zeros({2, 3})};
  RunOptions options;
  options.accuracy = true;
  options.backends = {"eager", "ts"};
  const auto rows = check_accuracy(loaded, first_point_run(options));
  ASSERT_EQ(rows.size(), 2u);  // an empty result must not pass
  for (const auto& row : rows) EXPECT_EQ(row.status, status::kEagerTwoRunsDiffer);
}

TEST(Training, EagerAndTsReachTheSameParametersAfterTwoSteps) {
  auto loaded = loaded_zoo_model("small_convnet", 4);
  CompileOptions options;
  options.mode = Mode::kTraining;
  options.example_inputs = loaded.inputs;
  auto eager = make_backend("eager");
  auto ts = make_backend("ts");
  TrainingIteration eager_training(*eager, loaded.reload(), options, OptimizerKind::kSgd);
  TrainingIteration ts_training(*ts, loaded.reload(), options, OptimizerKind::kSgd);
  for (int step = 0; step < 2; ++step) {
    eager_training.run(loaded.inputs);
    ts_training.run(loaded.inputs);
  }
  const auto expected = eager_training.parameters_and_gradients();
  const auto actual = ts_training.parameters_and_gradients();
  ASSERT_EQ(expected.size(), actual.size());
  bool any_gradient = false;
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_TRUE(torch::allclose(actual[i], expected[i], 1e-4, 1e-5)) << "tensor " << i;
    any_gradient |= i >= expected.size() / 2 && expected[i].abs().sum().item<double>() > 0;
  }
  EXPECT_TRUE(any_gradient);  // the comparison covered real gradients
  // And the parameters moved: training happened.
  auto fresh = loaded.reload()->parameters();
  EXPECT_FALSE(torch::allclose(expected[0], fresh[0]));
}

TEST(Training, AccuracyModeComparesLossGradientsAndParameters) {
  auto loaded = loaded_zoo_model("small_convnet", 4);
  RunOptions options;
  options.accuracy = true;
  options.mode = Mode::kTraining;
  options.backends = {"eager", "ts", "ofi"};
  const auto rows = check_accuracy(loaded, first_point_run(options));
  EXPECT_EQ(rows[0].status, status::kPass) << rows[0].error;
  EXPECT_EQ(rows[1].status, status::kPass) << rows[1].error;
  EXPECT_EQ(rows[2].status, status::kUnsupported);
  EXPECT_EQ(rows[2].mode, "train");
}

// Dropout then batch norm: random in training, and batch norm's statistics
// show whether the model stayed in training mode.
struct DropoutThenBatchNorm : torch::nn::Module {
  torch::nn::Dropout dropout = register_module("dropout", torch::nn::Dropout(0.5));
  torch::nn::BatchNorm1d norm = register_module("norm", torch::nn::BatchNorm1d(8));
  torch::Tensor forward(torch::Tensor x) { return norm(dropout(x)); }
};

TEST(Training, DisableDropoutKeepsBatchNormTraining) {
  NnModel<DropoutThenBatchNorm> model("m", std::make_shared<DropoutThenBatchNorm>());
  const auto x = torch::randn({4, 8}) + 3;
  model.set_training(true);
  EXPECT_FALSE(torch::equal(model.forward({x}).toTensor(), model.forward({x}).toTensor()));
  model.disable_dropout();
  const auto first = model.forward({x}).toTensor();
  EXPECT_TRUE(torch::equal(first, model.forward({x}).toTensor()));
  // Still normalised with the batch's own statistics: zero mean per feature.
  EXPECT_LT(first.mean(0).abs().max().item<double>(), 1e-5);
}

TEST(Training, ZooClassifiersTrainOnCrossEntropyWithSeededLabels) {
  auto loaded = loaded_zoo_model("small_convnet", 4);
  auto natural = loaded.model->training_loss();
  ASSERT_TRUE(natural.has_value());
  ASSERT_EQ(natural->targets.size(), 1u);
  const auto labels = natural->targets[0];
  EXPECT_EQ(labels.sizes(), (std::vector<int64_t>{4}));
  EXPECT_GE(labels.min().item<int64_t>(), 0);
  EXPECT_LT(labels.max().item<int64_t>(), 10);
  EXPECT_TRUE(torch::equal(labels, loaded.reload()->training_loss()->targets[0]));  // seeded

  // The iteration's loss is that cross-entropy, not the mean of the logits.
  CompileOptions options;
  options.mode = Mode::kTraining;
  options.example_inputs = loaded.inputs;
  auto eager = make_backend("eager");
  auto model = loaded.reload();
  model->set_training(true);
  const auto logits = model->forward(loaded.inputs).toTensor();
  TrainingIteration iteration(*eager, loaded.reload(), options, OptimizerKind::kSgd);
  const auto loss = iteration.run(loaded.inputs).toTupleRef().elements()[1].toTensor();
  EXPECT_NEAR(loss.item<double>(),
              torch::nn::functional::cross_entropy(logits, labels).item<double>(), 1e-5);
  EXPECT_FALSE(find_zoo_model("LinearModel")->make(2)->training_loss().has_value());
}

TEST(Training, LossIsTheMeanOfOutputMeans) {
  auto outputs = c10::ivalue::Tuple::create(
      {torch::full({2}, 1.0), torch::full({3}, 3.0), torch::arange(4)});  // integers are ignored
  EXPECT_DOUBLE_EQ(reduce_to_scalar_loss(outputs).item<double>(), 2.0);
}

}  // namespace
}  // namespace tracebench
