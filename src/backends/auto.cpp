// auto: compiles every recipe that may run the model, keeps those whose
// outputs pass the accuracy rule against eager (an fp64 reference where the
// model runs in float64) under --auto-tolerance, or below float32 keep its
// budget by measure on the evaluation set, times the keepers in
// interleaved rounds (auto_rounds.h), and runs the fastest. Under --shape-set it checks and
// times them at every shape of the set. Its row names the winner
// (`chosen`), and each candidate's median or why it was dropped is in the
// row's counters and warnings (JSON). The search is its compile time.

#include <torch/version.h>

#include <algorithm>
#include <iterator>
#include <optional>

#include "accuracy/accuracy_budget.h"
#include "accuracy/precision_cost.h"
#include "accuracy/tolerance.h"
#include "backends/auto_rounds.h"
#include "backends/graph/frozen_graph.h"
#include "backends/registry.h"
#include "measure/quiet_threads.h"
#include "util/tensor_tree.h"
#include "util/text.h"

namespace tracebench {

namespace {

// Eager first: if nothing else passes or wins, auto runs the model as it is.
// aot_inductor only where LibTorch has it: elsewhere every row would say so.
// The peer runtimes too: a user who would also try them gets the fastest of all.
constexpr const char* kCandidates[] = {
    "eager",
    "ofi",
    "onednn_linear",
    "xnnpack",
    "ofi_bf16",
    "int8_dynamic",
    "openvino",
    "onnxruntime",
    "openvino_bf16",
    "openvino_int8",
    "onnxruntime_int8",
#if TORCH_VERSION_MAJOR >= 2
    "aot_inductor",
    "aot_inductor_bf16",
#endif
};

// Candidates that are ofi plus a rewrite of some layers, and the counter of
// layers rewritten: at zero the candidate is ofi itself (onednn_linear on a
// convolutional network at batch 1), and timing it again would let noise
// choose between two names for one graph.
struct OfiVariant {
  const char* backend;
  const char* rewritten_counter;
};
constexpr OfiVariant kOfiVariants[] = {{"onednn_linear", kOnednnLinearsCounter},
                                       {"int8_dynamic", kInt8LinearsCounter}};

bool is_ofi_unchanged(const std::string& name, const CompiledModel& compiled) {
  for (const auto& variant : kOfiVariants) {
    if (name != variant.backend) continue;
    const auto counters = compiled.counters();
    const auto it = counters.find(variant.rewritten_counter);
    return it != counters.end() && it->second == 0;
  }
  return false;
}

struct Candidate {
  std::string name;
  std::unique_ptr<CompiledModel> compiled;
};

c10::IValue as_float64(const c10::IValue& value) {
  return map_tensors(value, [](const at::Tensor& tensor) {
    return tensor.is_floating_point() ? tensor.to(at::kDouble) : tensor;
  });
}

// The model's outputs in float64 (parameters, buffers and float inputs cast,
// then cast back: float32 -> float64 -> float32 is exact), or None when the
// model does not run in float64 (a float32 constant made in forward).
c10::IValue float64_reference(Model& model, const std::vector<c10::IValue>& inputs) {
  auto tensors = model.tensors();
  std::vector<at::ScalarType> dtypes;
  for (auto& tensor : tensors) dtypes.push_back(tensor.scalar_type());
  auto cast_all = [&](bool to_double) {
    for (size_t i = 0; i < tensors.size(); ++i) {
      if (!c10::isFloatingType(dtypes[i])) continue;
      tensors[i].set_data(tensors[i].to(to_double ? at::kDouble : dtypes[i]));
    }
  };
  c10::IValue reference;
  cast_all(true);
  try {
    std::vector<c10::IValue> wide;
    for (const auto& input : inputs) wide.push_back(as_float64(input));
    reference = model.forward(wide);
  } catch (const std::exception&) {
    reference = c10::IValue();
  }
  cast_all(false);
  return reference;
}

class AutoModel final : public CompiledModel {
 public:
  AutoModel(Candidate winner, std::map<std::string, double> counters,
            std::vector<BackendWarning> warnings)
      : winner_(std::move(winner)),
        counters_(std::move(counters)),
        warnings_(std::move(warnings)) {}
  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    return winner_.compiled->run(inputs);
  }
  std::map<std::string, double> counters() const override {
    auto all = winner_.compiled->counters();
    all.insert(counters_.begin(), counters_.end());
    return all;
  }
  std::vector<BackendWarning> warnings() const override {
    auto all = winner_.compiled->warnings();
    all.insert(all.end(), warnings_.begin(), warnings_.end());
    return all;
  }
  std::string chosen() const override { return winner_.name; }
  std::optional<Numerics> numerics_that_ran() const override {
    return winner_.compiled->numerics_that_ran();
  }
  double seconds_per_call(const std::vector<c10::IValue>& inputs, int64_t calls) override {
    return winner_.compiled->seconds_per_call(inputs, calls);
  }
  int64_t settling_calls() const override { return winner_.compiled->settling_calls(); }
  void wait_for_quiet_threads_elsewhere() override {
    winner_.compiled->wait_for_quiet_threads_elsewhere();
  }
  std::string runtime() const override { return winner_.compiled->runtime(); }
  std::map<std::string, std::string> runtime_settings() const override {
    return winner_.compiled->runtime_settings();
  }
  SaveableGraph saveable_graph() const override { return winner_.compiled->saveable_graph(); }

 private:
  Candidate winner_;
  std::map<std::string, double> counters_;
  std::vector<BackendWarning> warnings_;
};

// The float dtype of `examples` (bfloat16 under --bfloat16), float32 when
// they hold no float tensor: what the evaluation set (float32) is cast to.
at::ScalarType float_dtype_of(const std::vector<c10::IValue>& examples) {
  std::optional<at::ScalarType> dtype;
  for (const auto& example : examples) {
    for_each_tensor(example, [&dtype](const at::Tensor& tensor) {
      if (!dtype && tensor.is_floating_point()) dtype = tensor.scalar_type();
    });
  }
  return dtype.value_or(at::kFloat);
}

// Whether a candidate may run in auto's place: what it is checked on and
// against, and the rule --auto-tolerance sets for its numerics.
class CandidateCheck {
 public:
  CandidateCheck(Model& model, const CompileOptions& options)
      : options_(options),
        // What candidates are checked and timed on: the example inputs, or
        // under --shape-set one set per shape, so that the winner is right at
        // every shape and the fastest over the set (a graph that baked in the
        // example's shape may run at another and compute something else).
        input_sets_(options.shape_set_inputs.empty()
                        ? std::vector<std::vector<c10::IValue>>{options.example_inputs}
                        : options.shape_set_inputs) {
    for (const auto& inputs : input_sets_) {
      expected_.push_back(model.forward(inputs));
      reference_.push_back(float64_reference(model, inputs));
    }
    if (options.evaluation_set) {
      evaluation_inputs_ = options.evaluation_set->inputs;
      const auto dtype = float_dtype_of(options.example_inputs);
      for (auto& set : evaluation_inputs_) set = cast_inputs(set, dtype);
    }
  }

  const std::vector<std::vector<c10::IValue>>& input_sets() const { return input_sets_; }

  /// "" when `compiled` may run in auto's place: below float32 under a budget
  /// by measure, when its outputs keep the budget; otherwise when each input
  /// set gives the expected outputs under the accuracy rule of its numerics.
  /// Else why not, from ": ".
  std::string failure(CompiledModel& compiled, Numerics numerics) const {
    if (numerics != Numerics::kExact && options_.auto_tolerance.by_measure()) {
      return budget_failure(compiled);
    }
    return rule_failure(compiled, numerics);
  }

 private:
  std::string rule_failure(CompiledModel& compiled, Numerics numerics) const {
    for (size_t set = 0; set < input_sets_.size(); ++set) {
      const auto comparison =
          compare_outputs(expected_[set], compiled.run(input_sets_[set]), reference_[set],
                          tolerance_for("", Mode::kInference, options_.precision, numerics), {});
      if (comparison.same) continue;
      const std::string where = input_sets_.size() > 1
                                    ? " at shape " + std::to_string(set + 1) + " of the " +
                                          std::to_string(input_sets_.size()) + " of --shape-set"
                                    : "";
      return where + ": " + comparison.detail;
    }
    return "";
  }

  // Measured on the evaluation set against float32 eager's outputs, or on
  // the input sets against eager's without one (--accuracy).
  std::string budget_failure(CompiledModel& compiled) const {
    const auto* evaluation = options_.evaluation_set.get();
    const auto& inputs = evaluation ? evaluation_inputs_ : input_sets_;
    const auto& reference = evaluation ? evaluation->fp32_outputs : expected_;
    std::vector<c10::IValue> outputs;
    for (const auto& set : inputs) outputs.push_back(compiled.run(set));
    const std::string shortfall = budget_shortfall(
        options_.auto_tolerance, sqnr_db(reference, outputs), top1_agreement(reference, outputs));
    if (shortfall.empty()) return "";
    return " (--auto-tolerance " + accuracy_budget_label(options_.auto_tolerance) +
           "): " + shortfall;
  }

  const CompileOptions& options_;
  std::vector<std::vector<c10::IValue>> input_sets_;
  std::vector<c10::IValue> expected_, reference_;
  // The evaluation set's inputs in the example inputs' float dtype.
  std::vector<std::vector<c10::IValue>> evaluation_inputs_;
};

class AutoBackend final : public Backend {
 public:
  bool traces_model() const override { return true; }
  std::string description() const override {
    return "the fastest of eager/ofi/onednn_linear/xnnpack/openvino/onnxruntime (+aot_inductor "
           "on PyTorch 2.x; +ofi_bf16, openvino_bf16, aot_inductor_bf16 on 2.x, int8_dynamic, "
           "openvino_int8, "
           "onnxruntime_int8 under --auto-tolerance) that "
           "passes the accuracy rule or, below float32, keeps the budget by measure";
  }

  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    const CandidateCheck check(model, options);
    const auto& input_sets = check.input_sets();
    std::vector<Candidate> kept;
    std::vector<BackendWarning> dropped;
    const auto announce = [&options](const std::string& name) {
      if (options.on_auto_candidate) options.on_auto_candidate(name);
    };
    const std::vector<std::string> candidates =
        options.auto_candidates.empty()
            ? std::vector<std::string>(std::begin(kCandidates), std::end(kCandidates))
            : options.auto_candidates;
    for (const std::string& name : candidates) {
      auto backend = make_backend(name);
      if (backend->numerics() > options.auto_tolerance.loosest) continue;
      // The parent's row says why (orchestration/isolation.cpp).
      if (std::find(options.auto_skip.begin(), options.auto_skip.end(), name) !=
          options.auto_skip.end()) {
        continue;
      }
      announce(name);
      try {
        Candidate candidate{name, backend->compile(model, options)};
        if (is_ofi_unchanged(name, *candidate.compiled)) {
          dropped.push_back(
              {"auto_dropped", name + " rewrites no layer of this model, so it is ofi"});
          continue;
        }
        const std::string failed = check.failure(*candidate.compiled, backend->numerics());
        if (!failed.empty()) {
          dropped.push_back({"auto_dropped", name + " fails the accuracy rule" + failed});
          continue;
        }
        kept.push_back(std::move(candidate));
      } catch (const std::exception& error) {
        dropped.push_back(
            {"auto_dropped", name + " does not run the model: " + first_line(error.what())});
      }
    }
    if (kept.empty()) throw std::runtime_error("auto: no candidate runs the model");
    for (auto& candidate : kept) {  // warm every one up, at every shape
      announce(candidate.name);
      for (const auto& inputs : input_sets) candidate.compiled->run(inputs);
    }
    const auto rounds = time_candidates_in_rounds(kept.size(), [&](size_t index) {
      // Right after another candidate's call, the other's threads (LibTorch's
      // OpenMP, XNNPACK's pthreadpool, OpenVINO's TBB, a worker's ONNX
      // Runtime pool) still spin and take cores from this one (alexnet:
      // onnxruntime lost to xnnpack by 1.4x): wait for them, then wake this
      // candidate's own threads with an untimed call, as the timed samples do.
      // A sample is one call at each shape of the set.
      auto& candidate = kept[index];
      announce(candidate.name);
      wait_for_quiet_threads();
      candidate.compiled->run(input_sets.front());
      double seconds = 0;
      for (const auto& inputs : input_sets) {
        seconds += candidate.compiled->seconds_per_call(inputs, 1);
      }
      candidate.compiled->wait_for_quiet_threads_elsewhere();  // the next turn is another's
      return seconds;
    });
    std::map<std::string, double> counters;
    for (size_t i = 0; i < kept.size(); ++i) {
      counters["auto_candidate_ms." + kept[i].name] = rounds.medians_s[i] * 1e3;
    }
    counters["auto_runoff_candidates"] = static_cast<double>(rounds.runoff_candidates);

    // The winner compiled again once the losers' models, thread pools and
    // workers are freed, so that auto runs what `--backend <winner>` runs.
    // On resnet50 at batch 8 the ONNX Runtime worker that had taken turns
    // with the other candidates ran 1.5-3% slower than a fresh one in the
    // same rounds (docs/performance.md). Its outputs are checked again.
    const std::string winner = kept[rounds.fastest].name;
    kept.clear();
    announce(winner);
    const auto backend = make_backend(winner);
    Candidate fresh{winner, backend->compile(model, options)};
    const std::string failed = check.failure(*fresh.compiled, backend->numerics());
    if (!failed.empty()) {
      throw std::runtime_error("auto: " + winner + " compiled again fails the accuracy rule" +
                               failed);
    }
    return std::make_unique<AutoModel>(std::move(fresh), std::move(counters), std::move(dropped));
  }
};

const BuiltinBackend kAuto("auto", [] { return std::make_unique<AutoBackend>(); });

}  // namespace

}  // namespace tracebench
