// Performance mode on real models, with a test-only backend that fails on
// purpose to show that one failure costs one row.

#include "performance/performance.h"
#include "execution/input_pool.h"

#include <gtest/gtest.h>

#include <regex>

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

// Runs the model as eager does and logs what the harness asks of it: "T" a
// timed sample, "r" an untimed call, "q" a wait for its threads elsewhere.
// It asks for a settling call, as a backend on another thread pool does.
class RecordingBackend final : public Backend {
 public:
  explicit RecordingBackend(std::string* log) : log_(log) {}
  std::string description() const override { return "test only: logs the harness's requests"; }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions&) override {
    struct Recorded : CompiledModel {
      Recorded(Model& model, std::string* log) : model(model), log(log) {}
      c10::IValue run(const std::vector<c10::IValue>& inputs) override {
        *log += 'r';
        return model.forward(inputs);
      }
      double seconds_per_call(const std::vector<c10::IValue>& inputs, int64_t) override {
        *log += 'T';
        model.forward(inputs);
        return 1e-3;
      }
      int64_t settling_calls() const override { return 1; }
      void wait_for_quiet_threads_elsewhere() override { *log += 'q'; }
      Model& model;
      std::string* log;
    };
    return std::make_unique<Recorded>(model, log_);
  }

 private:
  std::string* log_;
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
  const auto rows = measure_performance(loaded, first_point_run(options));
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
  const auto rows = measure_performance(loaded, first_point_run(options));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].status, status::kFailToRun);
  EXPECT_EQ(rows[0].error, "deliberate failure");  // first line only
  EXPECT_EQ(rows[0].speedup, 0);
  EXPECT_TRUE(rows[1].passed());
  EXPECT_EQ(rows[1].samples_s.size(), 3u);
}

// Before the samples each log holds the first call (T), --warmup calls and the
// memory measurement's call: "Trrr" with --warmup 2.
struct RecordedRun {
  std::string first;
  std::string second;
};

RecordedRun record_two_backends(SampleOrder order) {
  static std::string first_log, second_log;
  first_log.clear();
  second_log.clear();
  register_backend("test_records_first",
                   [] { return std::unique_ptr<Backend>(new RecordingBackend(&first_log)); });
  register_backend("test_records_second",
                   [] { return std::unique_ptr<Backend>(new RecordingBackend(&second_log)); });
  auto loaded = load_linear_model();
  RunOptions options;
  options.backends = {"test_records_first", "test_records_second"};
  options.repeat = 3;
  options.warmup = 2;
  options.sample_order = order;
  for (const auto& row : measure_performance(loaded, first_point_run(options)))
    EXPECT_TRUE(row.passed()) << row.error;
  return {first_log, second_log};
}

// Blocked, a block starts with --warmup calls, as a user's loop does, and its
// samples follow each other with nothing between; the first backend's
// threads elsewhere quiet down before the second's block.
TEST(Performance, ABlockWarmsUpOnceAndRunsItsSamplesBackToBack) {
  const auto logs = record_two_backends(SampleOrder::kBlocked);
  EXPECT_EQ(logs.first,
            "Trrr"
            "rrTTT"
            "q");
  EXPECT_EQ(logs.second,
            "Trrr"
            "rrTTT");
}

// Interleaved, every sample follows a settling call, and a backend's threads
// elsewhere quiet down whenever another contender's turn comes next.
TEST(Performance, InterleavedSamplesEachFollowASettlingCall) {
  const auto logs = record_two_backends(SampleOrder::kInterleaved);
  for (const auto& log : {logs.first, logs.second}) {
    EXPECT_TRUE(std::regex_match(log, std::regex("Trrr(rTq?){3}"))) << log;
  }
  EXPECT_NE(logs.first.find('q'), std::string::npos) << logs.first;
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
