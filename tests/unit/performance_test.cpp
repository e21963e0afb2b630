// Performance mode on real models, with a test-only backend that fails on
// purpose to show that one failure costs one row.

#include "runner/performance.h"
#include "runner/input_pool.h"

#include <gtest/gtest.h>

#include "backends/registry.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

// Compiles fine, then throws on every call: a backend with a runtime bug.
class ThrowingBackend final : public Backend {
 public:
  std::string name() const override { return "test_throws"; }
  std::string description() const override { return "test only: throws when run"; }
  std::unique_ptr<CompiledModel> compile(Model&, const CompileOptions&) override {
    struct Throws : CompiledModel {
      c10::IValue run(const std::vector<c10::IValue>&) override {
        throw std::runtime_error("deliberate failure\nsecond line");
      }
    };
    return std::make_unique<Throws>();
  }
};

LoadedModel load_linear_model() {
  torch::manual_seed(0);
  LoadedModel loaded;
  loaded.name = "LinearModel";
  loaded.model = find_zoo_model("LinearModel")->make(2);
  loaded.inputs = loaded.model->example_inputs();
  loaded.batch_size = 2;
  return loaded;
}

TEST(Performance, OneRowPerBackendWithEverySample) {
  auto loaded = load_linear_model();
  RunOptions options;
  options.backends = {"eager", "ts"};
  options.repeat = 7;
  options.iterations_per_run = 3;
  const auto rows = measure_performance(loaded, options);
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) {
    EXPECT_TRUE(row.passed()) << row.error;
    EXPECT_EQ(row.model, "LinearModel");
    EXPECT_EQ(row.batch_size, 2);
    EXPECT_EQ(row.samples_s.size(), 7u);
    EXPECT_EQ(row.eager_samples_s.size(), 7u);
    EXPECT_GT(row.speedup, 0);
    EXPECT_GT(row.abs_latency_ms, 0);
    EXPECT_GE(row.p_value, 0);
    EXPECT_LE(row.p_value, 1);
    EXPECT_NEAR(row.speedup, row.eager_latency_ms / row.abs_latency_ms, 1e-12);
  }
  EXPECT_EQ(rows[0].backend, "eager");
  EXPECT_EQ(rows[1].backend, "ts");
  EXPECT_GT(rows[1].compilation_latency_s, 0);  // ts traces at compile time
}

TEST(Performance, AFailingBackendCostsOneRow) {
  register_backend("test_throws", [] { return std::unique_ptr<Backend>(new ThrowingBackend); });
  auto loaded = load_linear_model();
  RunOptions options;
  options.backends = {"test_throws", "eager"};
  options.repeat = 3;
  const auto rows = measure_performance(loaded, options);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].status, status::kFailToRun);
  EXPECT_EQ(rows[0].error, "deliberate failure");  // first line only
  EXPECT_EQ(rows[0].speedup, 0);
  EXPECT_TRUE(rows[1].passed());
  EXPECT_EQ(rows[1].samples_s.size(), 3u);
}

TEST(Performance, RandomizedInputsRedrawFloatsAndKeepIntegers) {
  const std::vector<c10::IValue> inputs = {torch::zeros({4, 3}), torch::arange(5)};
  const auto first = randomized_inputs(inputs, 1337, 0);
  const auto again = randomized_inputs(inputs, 1337, 0);
  const auto second = randomized_inputs(inputs, 1337, 1);
  EXPECT_EQ(first[0].toTensor().sizes(), inputs[0].toTensor().sizes());
  EXPECT_FALSE(torch::equal(first[0].toTensor(), inputs[0].toTensor()));
  EXPECT_TRUE(torch::equal(first[0].toTensor(), again[0].toTensor()));
  EXPECT_FALSE(torch::equal(first[0].toTensor(), second[0].toTensor()));
  EXPECT_TRUE(torch::equal(first[1].toTensor(), inputs[1].toTensor()));
}

// An RNN's hidden state arrives as a tuple (h, c): its floats are redrawn too.
TEST(Performance, RandomizedInputsReachIntoTuples) {
  const std::vector<c10::IValue> inputs = {
      c10::ivalue::Tuple::create({torch::zeros({1, 2, 3}), torch::arange(4)})};
  const auto fresh = randomized_inputs(inputs, 1337, 0);
  ASSERT_TRUE(fresh[0].isTuple());
  const auto& elements = fresh[0].toTupleRef().elements();
  EXPECT_EQ(elements[0].toTensor().sizes(), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_FALSE(torch::equal(elements[0].toTensor(), torch::zeros({1, 2, 3})));
  EXPECT_TRUE(torch::equal(elements[1].toTensor(), torch::arange(4)));
}

}  // namespace
}  // namespace tracebench
