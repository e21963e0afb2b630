// lazy_trace_once: trace once on LibTorch's lazy tensor core (TorchScript
// backend), then replay the compiled computation with no tracing.
//
// Inference: the forward pass is recorded once as lazy IR (parameters resident
// on the lazy device, see lazy_common.h) and captured (lazy_capture.h). Each
// call then transfers only the inputs, executes the computation and fetches
// the results: no IR, no hashing, no cache lookup. If an input's shape, dtype
// or a non-tensor input differs from every captured signature, the model is
// traced again for it (counted as a retrace).
//
// Training: a whole iteration (forward, loss, backward, SGD step) is one
// computation over the resident state (parameters, buffers, gradients) and the
// inputs; its results include the next state, which the following call feeds
// back in. The first iteration differs from the rest (no gradients exist yet),
// so the first two calls are traced and captured, and every later one replays
// the second.

#include <functional>
#include <sstream>
#include <unordered_map>

#include "backends/builtin.h"
#include "backends/lazy_capture.h"
#include "backends/lazy_common.h"
#include "backends/lazy_training.h"
#include "tracebench/error.h"

namespace tracebench {

namespace {

using lazy::BackendDataPtr;

std::string signature_of(const std::vector<c10::IValue>& inputs) {
  std::ostringstream out;
  for (const auto& input : inputs) {
    if (input.isTensor()) {
      const auto& tensor = input.toTensor();
      out << "T" << tensor.scalar_type() << tensor.sizes() << ";";
    } else {
      out << "V" << input << ";";
    }
  }
  return out.str();
}

std::vector<BackendDataPtr> data_of(const std::vector<at::Tensor>& lazy_tensors) {
  std::vector<BackendDataPtr> data;
  data.reserve(lazy_tensors.size());
  for (const auto& tensor : lazy_tensors) {
    data.push_back(tensor.defined() ? torch::lazy::GetLtcTensor(tensor)->GetDataHandle()
                                    : nullptr);
  }
  return data;
}

/// The captured tensors after a replay, on the CPU, put back into `like`'s structure.
c10::IValue outputs_of(const lazy::Capture& capture, const c10::IValue& like,
                       const std::vector<BackendDataPtr>& results,
                       const std::vector<BackendDataPtr>& resident,
                       const std::vector<c10::IValue>& inputs) {
  std::vector<at::Tensor> outputs;
  std::vector<at::Tensor> like_tensors;
  lazy::flatten_tensors(like, like_tensors);
  outputs.reserve(like_tensors.size());
  for (size_t i = 0; i < like_tensors.size(); ++i) {
    outputs.push_back(lazy::cpu_tensor_of(capture.tensors[i], results, resident, inputs));
  }
  size_t next = 0;
  return lazy::unflatten_tensors(like, outputs, next);
}

class Counters {
 public:
  lazy::CompileCounts compiles;
  int64_t traces = 0;
  int64_t retraces = 0;
  int64_t replays = 0;
  std::map<std::string, double> as_map() const {
    return {{"ltc_cached_compiles", static_cast<double>(compiles.cached)},
            {"ltc_uncached_compiles", static_cast<double>(compiles.uncached)},
            {"traces", static_cast<double>(traces)},
            {"retraces", static_cast<double>(retraces)},
            {"replays", static_cast<double>(replays)}};
  }
};

/// A computation captured for one input signature, and the CPU result of the
/// traced call (the structure replays fill in).
struct Entry {
  lazy::Capture capture;
  c10::IValue structure;
};

/// Traces one call: `record` on the lazy copies of `inputs`, with the data of
/// `resident` (what a replay supplies besides the inputs) as known state, then
/// captures the computation of the result's tensors followed by `written()`
/// (state read back after recording, which a replay must return).
Entry trace_and_capture(const std::vector<at::Tensor>& resident,
                        const std::vector<c10::IValue>& inputs,
                        const std::function<c10::IValue(const std::vector<c10::IValue>&)>& record,
                        const std::function<std::vector<at::Tensor>()>& written,
                        lazy::CompileCounts& compiles) {
  lazy::WholeGraphScope whole_graph;
  const auto fallbacks_before = lazy::eager_fallback_counts();
  auto lazy_inputs = lazy::to_lazy(inputs);
  lazy::DataIndex index{lazy::DataIndex::of(resident), lazy::DataIndex::of(lazy_inputs)};
  c10::IValue recorded = record(lazy_inputs);
  lazy::check_no_eager_fallback(fallbacks_before);

  std::vector<at::Tensor> captured;
  lazy::flatten_tensors(recorded, captured);
  for (const auto& tensor : written()) captured.push_back(tensor);
  return {lazy::capture(captured, index, compiles), lazy::to_cpu(recorded)};
}

class LazyTraceOnceModel final : public CompiledModel {
 public:
  explicit LazyTraceOnceModel(lazy::LazyProgram program)
      : program_(std::move(program)), resident_data_(data_of(program_.resident_lazy())) {}

  /// Traces `inputs` and captures the computation; returns the traced result.
  c10::IValue capture(const std::vector<c10::IValue>& inputs) {
    torch::NoGradGuard no_grad;
    Entry entry = trace_and_capture(
        program_.resident_lazy(), inputs,
        [&](const std::vector<c10::IValue>& lazy_inputs) { return program_.record_lazy(lazy_inputs); },
        [] { return std::vector<at::Tensor>(); }, counters_.compiles);
    ++counters_.traces;
    return captures_.insert_or_assign(signature_of(inputs), std::move(entry))
        .first->second.structure;
  }

  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    auto it = captures_.find(signature_of(inputs));
    if (it == captures_.end()) {
      ++counters_.retraces;
      return capture(inputs);
    }
    const Entry& entry = it->second;
    const auto results = lazy::execute(entry.capture, resident_data_, inputs);
    ++counters_.replays;
    return outputs_of(entry.capture, entry.structure, results, resident_data_, inputs);
  }

  std::map<std::string, double> counters() const override { return counters_.as_map(); }

 private:
  lazy::LazyProgram program_;
  std::vector<BackendDataPtr> resident_data_;  // of program_.resident_lazy()
  std::unordered_map<std::string, Entry> captures_;
  Counters counters_;
};

class LazyTrainOnceStep final : public CompiledTrainingStep {
 public:
  LazyTrainOnceStep(Model& model, const CompileOptions& options, const TrainingRecipe& recipe)
      : trainer_(model, options, recipe) {}

  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    auto it = captures_.find(key_of(inputs));
    if (it == captures_.end()) return capture(inputs);
    const Entry& entry = it->second;
    const auto results = lazy::execute(entry.capture, state_data_, inputs);
    auto outputs = outputs_of(entry.capture, entry.structure, results, state_data_, inputs);
    // The state tensors follow the outputs and the loss among the captured tensors.
    const size_t first_state = entry.capture.tensors.size() - state_data_.size();
    std::vector<BackendDataPtr> next_state(state_data_.size());
    for (size_t j = 0; j < state_data_.size(); ++j) {
      if (!state_data_[j]) continue;
      next_state[j] =
          lazy::device_data_of(entry.capture.tensors[first_state + j], results, state_data_);
    }
    state_data_ = std::move(next_state);
    state_in_tensors_ = false;
    ++counters_.replays;
    return outputs;
  }

  std::map<std::string, double> counters() const override { return counters_.as_map(); }

  std::vector<torch::Tensor> parameters_and_gradients() override {
    restore_state_tensors();
    return trainer_.parameters_and_gradients();
  }

 private:
  // The first iteration (no gradients yet) computes something else than the
  // later ones, so it gets a computation of its own.
  std::string key_of(const std::vector<c10::IValue>& inputs) const {
    return signature_of(inputs) + (state_data_.empty() ? "first" : "steady");
  }

  // Replays leave the newest state in state_data_ only: tracing again must
  // start from it.
  void restore_state_tensors() {
    if (state_in_tensors_) return;
    auto state = trainer_.state();
    for (size_t j = 0; j < state.size(); ++j) {
      if (state_data_[j]) torch::lazy::GetLtcTensor(state[j])->SetDataHandle(state_data_[j]);
    }
    state_in_tensors_ = true;
  }

  c10::IValue capture(const std::vector<c10::IValue>& inputs) {
    // Capturing the steady iteration for a second input signature is a retrace.
    const bool steady = !state_data_.empty();
    if (steady && steady_captured_) ++counters_.retraces;
    steady_captured_ = steady_captured_ || steady;
    restore_state_tensors();
    const auto key = key_of(inputs);
    Entry entry = trace_and_capture(
        trainer_.state(), inputs,
        [&](const std::vector<c10::IValue>& lazy_inputs) {
          return trainer_.record_iteration(lazy_inputs);
        },
        [&] { return trainer_.state(); }, counters_.compiles);
    state_data_ = data_of(trainer_.state());
    ++counters_.traces;
    return captures_.insert_or_assign(key, std::move(entry)).first->second.structure;
  }

  lazy::LazyTrainer trainer_;
  std::vector<BackendDataPtr> state_data_;  // newest data of trainer_.state()
  bool state_in_tensors_ = true;            // whether trainer_.state() holds it too
  bool steady_captured_ = false;
  std::unordered_map<std::string, Entry> captures_;
  Counters counters_;
};

class LazyTraceOnceBackend final : public Backend {
 public:
  std::string name() const override { return "lazy_trace_once"; }
  std::string description() const override {
    return "LTC TorchScript backend: trace once, replay the compiled computation per call";
  }
  bool supports_training() const override { return true; }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    if (options.mode != Mode::kInference) {
      throw UsageError("lazy_trace_once trains through compile_training_step only");
    }
    lazy::ensure_lazy_backend();
    auto compiled = std::make_unique<LazyTraceOnceModel>(
        lazy::LazyProgram(lazy::trace_with_parameter_inputs(model, options.example_inputs)));
    compiled->capture(options.example_inputs);
    return compiled;
  }
  std::unique_ptr<CompiledTrainingStep> compile_training_step(
      Model& model, const CompileOptions& options, const TrainingRecipe& recipe) override {
    // Replaying one captured step repeats its scalar constants; Adam's bias
    // corrections change with the step count, so a replay would be wrong.
    if (recipe.optimizer_name != "sgd") {
      throw UsageError("lazy_trace_once trains with --optimizer sgd only (a replayed step "
                       "would repeat " + recipe.optimizer_name +
                       "'s step-dependent constants); use lazy_trace_everytime for it");
    }
    lazy::ensure_lazy_backend();
    return std::make_unique<LazyTrainOnceStep>(model, options, recipe);
  }
};

}  // namespace

std::unique_ptr<Backend> make_lazy_trace_once_backend() {
  return std::make_unique<LazyTraceOnceBackend>();
}

}  // namespace tracebench
