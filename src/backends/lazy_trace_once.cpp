// lazy_trace_once: trace once on LibTorch's lazy tensor core (TorchScript
// backend), then replay the compiled computation with no tracing.
//
// Inference: the forward pass is recorded once as lazy IR (parameters resident
// on the lazy device, see lazy_common.h) and captured (lazy_capture.h). Each
// call then transfers only the inputs, executes the computation and fetches
// the results: no IR, no hashing, no cache lookup. If an input's shape, dtype
// or a non-tensor input differs from every captured signature, the model is
// traced again for it (counted as a retrace). Where an op falls back to eager
// or syncs mid-way, the forward pass is captured in segments around it
// (lazy_segments.h), each replayed as above.
//
// Training: a whole iteration (forward, loss, backward, SGD step) is one
// computation over the resident state (parameters, buffers, gradients) and the
// inputs; its results include the next state, which the following call feeds
// back in. The first iteration differs from the rest (no gradients exist yet),
// so the first two calls are traced and captured, and every later one replays
// the second.

#include <chrono>
#include <functional>

#include "backends/lazy/flat_inputs.h"
#include "backends/lazy/lazy_capture.h"
#include "backends/lazy/lazy_common.h"
#include "backends/lazy/lazy_frozen.h"
#include "backends/lazy/lazy_segments.h"
#include "backends/lazy/lazy_training.h"
#include "backends/registry.h"
#include "tracebench/error.h"

namespace tracebench {

namespace {

using lazy::BackendDataPtr;

/// What a captured computation is valid for: the dtype and shape of each
/// tensor input, the value of any other. Matched without allocating, since
/// every replay looks its capture up.
class Signature {
 public:
  explicit Signature(const std::vector<c10::IValue>& inputs) {
    for (const auto& input : inputs) {
      if (input.isTensor()) {
        const auto& tensor = input.toTensor();
        items_.push_back({true, tensor.scalar_type(), tensor.sizes().vec(), c10::IValue()});
      } else {
        items_.push_back({false, c10::ScalarType::Undefined, {}, input});
      }
    }
  }

  bool matches(const std::vector<c10::IValue>& inputs) const {
    if (inputs.size() != items_.size()) return false;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Item& item = items_[i];
      if (item.is_tensor != inputs[i].isTensor()) return false;
      if (!item.is_tensor) {
        if (!(item.value == inputs[i])) return false;
        continue;
      }
      const auto& tensor = inputs[i].toTensor();
      if (tensor.scalar_type() != item.dtype || tensor.sizes() != c10::IntArrayRef(item.sizes)) {
        return false;
      }
    }
    return true;
  }

 private:
  struct Item {
    bool is_tensor;
    c10::ScalarType dtype;
    std::vector<int64_t> sizes;
    c10::IValue value;
  };
  std::vector<Item> items_;
};

std::vector<BackendDataPtr> data_of(const std::vector<at::Tensor>& lazy_tensors) {
  std::vector<BackendDataPtr> data;
  data.reserve(lazy_tensors.size());
  for (const auto& tensor : lazy_tensors) {
    const bool lazy = tensor.defined() && tensor.device().type() == c10::kLazy;
    data.push_back(lazy ? torch::lazy::GetLtcTensor(tensor)->GetDataHandle() : nullptr);
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
  double trace_seconds = 0;  // tracing and capturing, compiles included
  std::map<std::string, double> as_map() const {
    return {{"ltc_cached_compiles", static_cast<double>(compiles.cached)},
            {"ltc_uncached_compiles", static_cast<double>(compiles.uncached)},
            {"traces", static_cast<double>(traces)},
            {kGraphsCounter, static_cast<double>(traces)},
            {kGraphCompileSecondsCounter, trace_seconds},
            {"retraces", static_cast<double>(retraces)},
            {"replays", static_cast<double>(replays)}};
  }
};

/// A computation captured for one input signature, and the CPU result of the
/// traced call (the structure replays fill in).
struct Entry {
  lazy::Capture capture;
  c10::IValue structure;
  std::shared_ptr<lazy::FrozenComputation> frozen;  // runs instead of capture when set
};

/// Captured computations by input signature and phase (training captures its
/// first iteration apart from the steady ones). A handful at most: a linear
/// search.
class CaptureTable {
 public:
  const Entry* find(const std::vector<c10::IValue>& inputs, int phase = 0) const {
    for (const auto& keyed : entries_) {
      if (keyed.phase == phase && keyed.signature.matches(inputs)) return &keyed.entry;
    }
    return nullptr;
  }
  const Entry& insert(const std::vector<c10::IValue>& inputs, int phase, Entry entry) {
    entries_.push_back({Signature(inputs), phase, std::move(entry)});
    return entries_.back().entry;
  }

 private:
  struct Keyed {
    Signature signature;
    int phase;
    Entry entry;
  };
  std::vector<Keyed> entries_;
};

/// Traces one call: `record` on the lazy copies of `inputs`, with the data of
/// `resident` (what a replay supplies besides the inputs) as known state, then
/// captures the computation of the result's tensors followed by `written()`
/// (state read back after recording, which a replay must return). Counts the
/// trace and its time in `counters`.
Entry trace_and_capture(const std::vector<at::Tensor>& resident,
                        const std::vector<c10::IValue>& inputs,
                        const std::function<c10::IValue(const std::vector<c10::IValue>&)>& record,
                        const std::function<std::vector<at::Tensor>()>& written,
                        Counters& counters) {
  const auto start = std::chrono::steady_clock::now();
  lazy::WholeGraphScope whole_graph;
  const auto fallbacks_before = lazy::eager_fallback_counts();
  auto lazy_inputs = lazy::to_lazy(inputs);
  lazy::DataIndex index{lazy::DataIndex::of(resident), lazy::DataIndex::of(lazy_inputs)};
  const auto compiles_before = lazy::CompileCounts::now();
  c10::IValue recorded = record(lazy_inputs);
  lazy::check_no_eager_fallback(fallbacks_before);
  lazy::check_no_sync_since(compiles_before);

  std::vector<at::Tensor> captured;
  lazy::flatten_tensors(recorded, captured);
  for (const auto& tensor : written()) captured.push_back(tensor);
  Entry entry{lazy::capture(captured, index, counters.compiles), lazy::to_cpu(recorded), nullptr};
  ++counters.traces;
  counters.trace_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return entry;
}

class LazyTraceOnceModel final : public CompiledModel {
 public:
  LazyTraceOnceModel(lazy::LazyProgram program, bool freeze)
      : program_(std::move(program)),
        resident_data_(data_of(program_.resident_lazy())),
        freeze_(freeze) {}

  /// Traces `inputs` and captures the computation; returns the traced result.
  c10::IValue capture(const std::vector<c10::IValue>& inputs) {
    torch::NoGradGuard no_grad;
    Entry entry = trace_and_capture(
        program_.resident_lazy(), inputs,
        [&](const std::vector<c10::IValue>& lazy_inputs) {
          return program_.record_lazy(lazy_inputs);
        },
        [] { return std::vector<at::Tensor>(); }, counters_);
    if (freeze_ && entry.capture.computation) {
      entry.frozen = std::make_shared<lazy::FrozenComputation>(entry.capture, resident_data_);
    }
    return captures_.insert(inputs, /*phase=*/0, std::move(entry)).structure;
  }

  c10::IValue run(const std::vector<c10::IValue>& nested_inputs) override {
    const auto inputs = lazy::flat_inputs(nested_inputs);
    const Entry* found = captures_.find(inputs);
    if (!found) {
      ++counters_.retraces;
      return capture(inputs);
    }
    const Entry& entry = *found;
    const auto results = entry.frozen ? entry.frozen->run(inputs)
                                      : lazy::execute(entry.capture, resident_data_, inputs);
    ++counters_.replays;
    return outputs_of(entry.capture, entry.structure, results, resident_data_, inputs);
  }

  std::map<std::string, double> counters() const override {
    auto counters = counters_.as_map();
    counters["frozen"] = freeze_ ? 1 : 0;
    return counters;
  }

 private:
  lazy::LazyProgram program_;
  std::vector<BackendDataPtr> resident_data_;  // of program_.resident_lazy()
  bool freeze_;
  CaptureTable captures_;
  Counters counters_;
};

class LazyTrainOnceStep final : public CompiledTrainingStep {
 public:
  LazyTrainOnceStep(Model& model, const CompileOptions& options, const TrainingRecipe& recipe)
      : trainer_(model, options, recipe) {}

  c10::IValue run(const std::vector<c10::IValue>& nested_inputs) override {
    const auto inputs = lazy::flat_inputs(nested_inputs);
    const Entry* found = captures_.find(inputs, phase());
    if (!found) return capture(inputs);
    const Entry& entry = *found;
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
  enum Phase { kFirst, kSteady };
  Phase phase() const { return state_data_.empty() ? kFirst : kSteady; }

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
    const Phase traced_phase = phase();
    if (traced_phase == kSteady && steady_captured_) ++counters_.retraces;
    steady_captured_ = steady_captured_ || traced_phase == kSteady;
    restore_state_tensors();
    std::vector<at::Tensor> next_state;  // the state tensors after recording
    Entry entry = trace_and_capture(
        trainer_.state(), inputs,
        [&](const std::vector<c10::IValue>& lazy_inputs) {
          return trainer_.record_iteration(lazy_inputs);
        },
        [&] { return next_state = trainer_.state(); }, counters_);
    state_data_ = data_of(next_state);  // synced by the capture
    return captures_.insert(inputs, traced_phase, std::move(entry)).structure;
  }

  lazy::LazyTrainer trainer_;
  std::vector<BackendDataPtr> state_data_;  // newest data of trainer_.state()
  bool state_in_tensors_ = true;            // whether trainer_.state() holds it too
  bool steady_captured_ = false;
  CaptureTable captures_;
  Counters counters_;
};

/// With `freeze`, inference replays the captured computation frozen and
/// optimized (lazy_frozen.h); without, as LTC compiled it. Training never
/// freezes: its state changes every step.
class LazyTraceOnceBackend final : public Backend {
 public:
  explicit LazyTraceOnceBackend(bool freeze) : freeze_(freeze) {}
  bool traces_model() const override { return true; }
  std::string description() const override {
    return freeze_ ? "LTC TorchScript backend: trace once, replay the captured computation "
                     "(inference: frozen + ofi passes)"
                   : "lazy_trace_once replaying LTC's computation as compiled (no freezing)";
  }
  bool supports_training() const override { return true; }
  bool supports_amp() const override { return false; }  // lazy tensors are not CPU tensors
  std::string concurrent_streams_unsupported() const override { return lazy::kOneLazyDevice; }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    if (options.mode != Mode::kInference) {
      throw UsageError("lazy_trace_once trains through compile_training_step only");
    }
    lazy::ensure_lazy_backend();
    auto traced = lazy::inference_graph_with_parameter_inputs(model, options);
    const auto example = lazy::flat_inputs(options.example_inputs);
    const auto off_graph =
        lazy::nodes_off_the_lazy_graph(traced, example, lazy::BreakAt::kEveryEagerOp);
    if (off_graph.nodes.empty()) return capture(std::move(traced), example);
    return lazy::compile_in_segments(
        std::move(traced), off_graph, example,
        [this](lazy::ParameterizedGraph segment, const std::vector<c10::IValue>& example) {
          return capture(std::move(segment), example);
        });
  }
  std::unique_ptr<CompiledTrainingStep> compile_training_step(
      Model& model, const CompileOptions& options, const TrainingRecipe& recipe) override {
    // Training is captured whole (no segments around eager ops). Replaying one
    // captured step repeats its scalar constants; Adam's bias corrections
    // change with the step count, so a replay would be wrong.
    if (recipe.optimizer_name != "sgd") {
      throw UsageError(
          "lazy_trace_once trains with --optimizer sgd only (a replayed step "
          "would repeat " +
          recipe.optimizer_name + "'s step-dependent constants); use lazy_trace_everytime for it");
    }
    lazy::ensure_lazy_backend();
    return std::make_unique<LazyTrainOnceStep>(model, options, recipe);
  }

 private:
  std::unique_ptr<CompiledModel> capture(lazy::ParameterizedGraph traced,
                                         const std::vector<c10::IValue>& example) const {
    auto compiled =
        std::make_unique<LazyTraceOnceModel>(lazy::LazyProgram(std::move(traced)), freeze_);
    compiled->capture(example);
    return compiled;
  }

  bool freeze_;
};

const BuiltinBackend kLazyTraceOnce("lazy_trace_once", [] {
  return std::make_unique<LazyTraceOnceBackend>(/*freeze=*/true);
});
const BuiltinBackend kLazyTraceOnceUnfrozen("lazy_trace_once_unfrozen", [] {
  return std::make_unique<LazyTraceOnceBackend>(/*freeze=*/false);
});

}  // namespace

}  // namespace tracebench
