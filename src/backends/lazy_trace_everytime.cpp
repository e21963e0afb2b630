// lazy_trace_everytime: the model runs on LibTorch's lazy tensor core (TorchScript
// backend) the way an LTC/XLA user runs it: every call moves the inputs to the
// lazy device, records the forward pass as lazy IR, and syncs (the mark-step
// equivalent), which hashes the IR graph, finds the compiled computation in
// LTC's cache (or lowers and compiles it once) and executes it. Parameters are
// placed on the lazy device once at compile time (see lazy_common.h).

#include <functional>

#include "backends/lazy/flat_inputs.h"
#include "backends/lazy/lazy_common.h"
#include "backends/lazy/lazy_segments.h"
#include "backends/lazy/lazy_training.h"
#include "backends/registry.h"
#include "tracebench/error.h"

namespace tracebench {

namespace {

/// What every trace-every-time call does after recording: sync (the mark
/// step; every call, since run() must return finished CPU results), fetch
/// the results, and count the compiles the sync did. The ops that fell back
/// to eager are counted on the first call (every call records the same ops),
/// so later calls pay nothing for it.
class SyncedCalls {
 public:
  c10::IValue sync(const std::function<c10::IValue()>& record) {
    const auto before = lazy::CompileCounts::now();
    std::map<std::string, int64_t> fallbacks_before;
    if (calls_ == 0) fallbacks_before = lazy::eager_fallback_counts();
    c10::IValue recorded = record();
    if (calls_ == 0) {
      for (const auto& [op, count] : lazy::fallbacks_since(fallbacks_before)) {
        fallbacks_per_call_ += count;
      }
    }
    lazy::mark_step();
    auto result = lazy::to_cpu(recorded);
    counts_ += lazy::CompileCounts::now() - before;
    ++calls_;
    return result;
  }

  std::map<std::string, double> counters() const {
    return {{"ltc_cached_compiles", static_cast<double>(counts_.cached)},
            {"ltc_uncached_compiles", static_cast<double>(counts_.uncached)},
            {"calls", static_cast<double>(calls_)},
            {"eager_fallbacks_per_call", static_cast<double>(fallbacks_per_call_)}};
  }

 private:
  lazy::CompileCounts counts_;
  int64_t calls_ = 0;
  int64_t fallbacks_per_call_ = 0;
};

class LazyTraceEverytimeModel final : public CompiledModel {
 public:
  explicit LazyTraceEverytimeModel(lazy::LazyProgram program) : program_(std::move(program)) {}

  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    torch::NoGradGuard no_grad;
    return calls_.sync([&] { return program_.record(lazy::flat_inputs(inputs)); });
  }

  std::map<std::string, double> counters() const override { return calls_.counters(); }

 private:
  lazy::LazyProgram program_;
  SyncedCalls calls_;
};

// Training the way the seed's trace_everytime does: every iteration records
// forward, loss, backward and the optimizer step as lazy IR on the lazy device
// and syncs once; the graph is compiled once and then found by hash.
class LazyTrainEverytimeStep final : public CompiledTrainingStep {
 public:
  LazyTrainEverytimeStep(Model& model, const CompileOptions& options, const TrainingRecipe& recipe)
      : trainer_(model, options, recipe) {}

  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    return calls_.sync(
        [&] { return trainer_.record_iteration(lazy::to_lazy(lazy::flat_inputs(inputs))); });
  }

  std::map<std::string, double> counters() const override { return calls_.counters(); }

  std::vector<torch::Tensor> parameters_and_gradients() override {
    return trainer_.parameters_and_gradients();
  }

 private:
  lazy::LazyTrainer trainer_;
  SyncedCalls calls_;
};

class LazyTraceEverytimeBackend final : public Backend {
 public:
  bool traces_model() const override { return true; }
  std::string description() const override {
    return "LTC TorchScript backend: record lazy IR and sync every call (graph cache by hash)";
  }
  bool supports_training() const override { return true; }
  bool supports_amp() const override { return false; }  // lazy tensors are not CPU tensors
  std::string concurrent_streams_unsupported() const override { return lazy::kOneLazyDevice; }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    if (options.mode != Mode::kInference) {
      throw UsageError("lazy_trace_everytime trains through compile_training_step only");
    }
    lazy::ensure_lazy_backend();
    auto traced = lazy::inference_graph_with_parameter_inputs(model, options);
    const auto example = lazy::flat_inputs(options.example_inputs);
    auto record_every_call = [](lazy::ParameterizedGraph graph, const std::vector<c10::IValue>&) {
      return std::make_unique<LazyTraceEverytimeModel>(lazy::LazyProgram(std::move(graph)));
    };
    // Ops LTC runs as eager fallbacks stay in the recorded graph (LTC splits
    // it itself, as for any user of it); only what LTC cannot run at all (a
    // nested tensor) runs on the CPU between segments.
    const auto off_graph =
        lazy::nodes_off_the_lazy_graph(traced, example, lazy::BreakAt::kWhereLazyFails);
    if (off_graph.nodes.empty()) return record_every_call(std::move(traced), {});
    return lazy::compile_in_segments(std::move(traced), off_graph, example, record_every_call);
  }
  std::unique_ptr<CompiledTrainingStep> compile_training_step(
      Model& model, const CompileOptions& options, const TrainingRecipe& recipe) override {
    lazy::ensure_lazy_backend();
    return std::make_unique<LazyTrainEverytimeStep>(model, options, recipe);
  }
};

const BuiltinBackend kLazyTraceEverytime("lazy_trace_everytime", [] {
  return std::make_unique<LazyTraceEverytimeBackend>();
});

}  // namespace

}  // namespace tracebench
