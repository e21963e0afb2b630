// lazy_trace_everytime: the model runs on LibTorch's lazy tensor core (TorchScript
// backend) the way an LTC/XLA user runs it: every call moves the inputs to the
// lazy device, records the forward pass as lazy IR, and syncs (the mark-step
// equivalent), which hashes the IR graph, finds the compiled computation in
// LTC's cache (or lowers and compiles it once) and executes it. Parameters are
// placed on the lazy device once at compile time (see lazy_common.h).

#include <torch/csrc/lazy/core/lazy_graph_executor.h>

#include "backends/builtin.h"
#include "backends/lazy_common.h"
#include "tracebench/error.h"

namespace tracebench {

namespace {

class LazyTraceEverytimeModel final : public CompiledModel {
 public:
  explicit LazyTraceEverytimeModel(lazy::LazyProgram program) : program_(std::move(program)) {}

  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    torch::NoGradGuard no_grad;
    const auto before = lazy::CompileCounts::now();
    c10::IValue lazy_out = program_.record(inputs);
    // Mark step: materialize every live lazy tensor with pending IR (here: the
    // outputs) through one graph execution, then fetch the outputs. Synced on
    // every call because run() must return finished CPU results.
    auto* executor = torch::lazy::LazyGraphExecutor::Get();
    const auto device = lazy::lazy_backend_device();
    executor->SyncLiveTensorsGraph(&device, /*devices=*/{}, /*wait=*/true);
    executor->MarkStep(device);
    std::vector<at::Tensor> lazy_tensors;
    lazy::flatten_tensors(lazy_out, lazy_tensors);
    std::vector<at::Tensor> cpu_tensors;
    cpu_tensors.reserve(lazy_tensors.size());
    for (const auto& tensor : lazy_tensors) cpu_tensors.push_back(tensor.to(c10::kCPU));
    const auto delta = lazy::CompileCounts::now() - before;
    counts_.cached += delta.cached;
    counts_.uncached += delta.uncached;
    ++calls_;
    size_t next = 0;
    return lazy::unflatten_tensors(lazy_out, cpu_tensors, next);
  }

  std::map<std::string, double> counters() const override {
    return {{"ltc_cached_compiles", static_cast<double>(counts_.cached)},
            {"ltc_uncached_compiles", static_cast<double>(counts_.uncached)},
            {"calls", static_cast<double>(calls_)}};
  }

 private:
  lazy::LazyProgram program_;
  lazy::CompileCounts counts_;
  int64_t calls_ = 0;
};

class LazyTraceEverytimeBackend final : public Backend {
 public:
  std::string name() const override { return "lazy_trace_everytime"; }
  std::string description() const override {
    return "LTC TorchScript backend: record lazy IR and sync every call (graph cache by hash)";
  }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    if (options.mode != Mode::kInference) {
      throw UsageError("lazy_trace_everytime supports inference only");
    }
    lazy::ensure_lazy_backend();
    return std::make_unique<LazyTraceEverytimeModel>(
        lazy::LazyProgram(lazy::trace_with_parameter_inputs(model, options.example_inputs)));
  }
};

}  // namespace

std::unique_ptr<Backend> make_lazy_trace_everytime_backend() {
  return std::make_unique<LazyTraceEverytimeBackend>();
}

}  // namespace tracebench
