#pragma once
/// The backend interface: how a model is turned into something the timer calls.
///
/// Backends outside tracebench live in a plugin (a C++ file or a shared
/// library) loaded with `--backend-plugin FILE`:
///
///   class MyBackend : public tracebench::Backend { ... name() returns "mine" ... };
///   TRACEBENCH_REGISTER_BACKEND(mine, MyBackend)
///
/// after which `--backend=mine` works. See examples/plugins/.

#include <torch/version.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tracebench/counters.h"
#include "tracebench/model.h"

namespace torch::jit {
struct Graph;
}  // namespace torch::jit

namespace tracebench {

enum class Mode { kInference, kTraining };

/// --float32 (default), --bfloat16 (model and float inputs cast), --amp (CPU
/// autocast to bfloat16 around every call).
enum class Precision { kFloat32, kBFloat16, kAmp };

/// How far a backend's arithmetic may stray from the model's own, whatever
/// --precision says: exact (float32 kernels, reordered at most), bfloat16
/// (lowers activations and weights itself), int8 (quantizes weights). It picks
/// the accuracy rule the backend is held to (accuracy/tolerance.cpp) and which
/// backends `auto` may choose under --auto-tolerance.
enum class Numerics { kExact, kBFloat16, kInt8 };

/// --auto-tolerance: what `auto` may give up for speed. By name ("bf16"), the
/// loosest numerics it may choose, each candidate held to its numerics'
/// accuracy rule. By measure ("sqnr=30", "top1=99"), any numerics: a
/// candidate below float32 is kept when its outputs on the evaluation set keep
/// every bound given (accuracy/accuracy_budget.h), one that computes in float32
/// is still held to the exact rule.
struct AccuracyBudget {
  Numerics loosest = Numerics::kExact;
  std::optional<double> min_sqnr_db;
  std::optional<double> min_top1_percent;  // 0-100
  bool by_measure() const { return min_sqnr_db.has_value() || min_top1_percent.has_value(); }
};

/// Input sets apart from the timed ones and the calibration set, and float32
/// eager's outputs on each: what a row below float32 is scored on, and what
/// `auto` checks a budget by measure on (accuracy_check/evaluation_set.h makes it).
struct EvaluationSet {
  std::vector<std::vector<c10::IValue>> inputs;  // float32
  std::vector<c10::IValue> fp32_outputs;         // one per input set
};

/// Something a row should say about how its backend ran, such as bfloat16
/// emulated on a CPU without native support: a stable code (the CSV's
/// warnings column) and the message.
struct BackendWarning {
  std::string code;
  std::string message;
};

/// Thrown by Backend::compile when the backend cannot run this model by
/// design (the model uses what the backend's recipe does not cover): the row
/// becomes `unsupported` with the message, not `fail_to_run`.
class UnsupportedModel : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An UnsupportedModel for every model: this build lacks what the backend
/// needs (LibTorch without XNNPACK, LibTorch 1.13 for the 2.x backends, a
/// peer runtime not installed). The message names the fix. Tests skip a
/// backend on this alone.
class UnsupportedBuild : public UnsupportedModel {
 public:
  using UnsupportedModel::UnsupportedModel;
};

/// What --save-optimized writes for a compiled model: a TorchScript graph
/// taking run()'s inputs, or the runtime's own files. `loader_step` is empty when the graph is the
/// one run() runs; otherwise it names what a loader applies to get that (ofi's oneDNN-layout
/// weights do not serialize, so ofi saves its frozen graph and says
/// "torch.jit.optimize_for_inference").
struct SaveableGraph {
  std::shared_ptr<torch::jit::Graph> graph;  // nullptr: nothing TorchScript to save
  std::string loader_step;
  /// For a runtime of its own (OpenVINO, ONNX Runtime): instead of a graph, the
  /// files of its model in its own format (an IR's .xml then its .bin, an .onnx),
  /// copied as they are, the first named by --save-optimized with its extension.
  std::vector<std::string> native_files;
};

/// What a backend may use while compiling.
struct CompileOptions {
  Mode mode = Mode::kInference;
  Precision precision = Precision::kFloat32;
  /// --threads as the run set it: LibTorch's intra-op threads, which a backend
  /// with a thread pool of its own (OpenVINO, ONNX Runtime) is given too.
  int64_t threads = 1;
  /// --streams: how many instances will be compiled and run at once.
  int64_t streams = 1;
  /// Inputs representative of every later call (tracing backends record with them).
  std::vector<c10::IValue> example_inputs;
  /// --shape-set: the dimension along which the inputs change size from call
  /// to call (every tensor input of more dimensions). A backend that compiles
  /// for fixed shapes makes it dynamic where its compiler can.
  std::optional<int64_t> dynamic_dim;
  /// --shape-set: the example inputs at each of its shapes, for a backend
  /// that chooses among others by running them (auto); empty without a set.
  std::vector<std::vector<c10::IValue>> shape_set_inputs;
  /// --auto-tolerance: what `auto` may give up for speed.
  AccuracyBudget auto_tolerance;
  /// Input sets (float32) a backend that quantizes statically calibrates on:
  /// seeded draws apart from the timed samples' and the evaluation set's, or
  /// the --inputs sets after the evaluation set's; empty where no backend of
  /// the run may lower precision (accuracy_check/evaluation_set.h).
  std::vector<std::vector<c10::IValue>> calibration_inputs;
  /// The evaluation set where some row may run below float32; null otherwise
  /// (training, or every backend float32). `auto` checks a budget by measure
  /// on it, or on its example inputs without one.
  std::shared_ptr<const EvaluationSet> evaluation_set;
  /// The backends `auto` tries, in this order; empty: its own list
  /// (backends/auto.cpp). Tests plant candidates whose costs they know.
  std::vector<std::string> auto_candidates;
  /// Candidates `auto` must leave out: each killed the model's process in an
  /// earlier attempt (a crash in a runtime's compiler cannot be caught), and
  /// the parent ran the model again without it.
  std::vector<std::string> auto_skip;
  /// Called by `auto` with each candidate before it compiles or runs it, so
  /// that a process that dies names the candidate; may be empty.
  std::function<void(const std::string& candidate)> on_auto_candidate;
};

/// The runtime LibTorch's own backends run on, as rows and `tracebench list` name it.
inline std::string libtorch_runtime() { return "LibTorch " TORCH_VERSION " (C++)"; }

/// A compiled model: the thing that is timed. `run` must return outputs on the
/// CPU and must have finished all its work when it returns.
class CompiledModel {
 public:
  virtual ~CompiledModel() = default;
  virtual c10::IValue run(const std::vector<c10::IValue>& inputs) = 0;
  /// One timed sample: seconds per call over `calls` calls of run(inputs), back to
  /// back. A model run by another process (a Python worker) times the calls where
  /// they run, so that moving inputs and outputs between processes stays outside.
  virtual double seconds_per_call(const std::vector<c10::IValue>& inputs, int64_t calls) {
    const auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < calls; ++i) run(inputs);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    return elapsed.count() / static_cast<double>(calls);
  }
  /// Untimed calls before a timed sample that follows another contender's
  /// (with --sample-order blocked, before a block: --warmup calls if more;
  /// performance/performance.cpp's sample_lead); not zero for a model that
  /// computes on a thread pool other than LibTorch's OpenMP (OpenVINO's TBB,
  /// XNNPACK's pthreadpool, a worker process's). Pools' threads spin after a
  /// call, and a contender timed while another's spin ran up to 2x slower
  /// (openvino on mobilenet_v2; docs/peers.md). When any contender asks for
  /// settling calls, every such sample, eager's included, first waits for
  /// quiet threads (measure/quiet_threads.h) and then makes these calls, which
  /// wake its own pool as a user's previous call would.
  virtual int64_t settling_calls() const { return 0; }
  /// Returns once the threads this model computes on in another process (a
  /// worker's pool) no longer spin after its calls. The harness calls it
  /// before it times another contender; the threads of this process are
  /// waited for by measure/quiet_threads.h.
  virtual void wait_for_quiet_threads_elsewhere() {}
  /// The runtime that ran it, its version and language: "OpenVINO 2026.4.1 (C++)".
  virtual std::string runtime() const { return libtorch_runtime(); }
  /// The runtime's settings it ran with (KEY -> value, as the runtime's own
  /// tool would take them); empty for LibTorch's backends.
  virtual std::map<std::string, std::string> runtime_settings() const { return {}; }
  /// Backend-specific counters worth reporting (e.g. cache hits), name -> value.
  /// A backend that compiles or traces a graph per input shape counts them
  /// as kGraphsCounter and kGraphCompileSecondsCounter (tracebench/counters.h),
  /// which rows show as columns.
  virtual std::map<std::string, double> counters() const { return {}; }
  /// What the row should warn about (see BackendWarning).
  virtual std::vector<BackendWarning> warnings() const { return {}; }
  /// For a backend that picks another (auto): the one it runs; else "".
  virtual std::string chosen() const { return ""; }
  /// The arithmetic its compute ran in, where the runtime says so and it can
  /// differ from the backend's numerics(): OpenVINO asked for bf16 runs f32 on
  /// a CPU without bf16 instructions. Empty: the backend's numerics().
  virtual std::optional<Numerics> numerics_that_ran() const { return std::nullopt; }
  /// See SaveableGraph; the default is a model with no TorchScript form (eager).
  virtual SaveableGraph saveable_graph() const { return {}; }
};

/// What a training iteration needs from the harness, for a backend that runs
/// the whole iteration itself (see Backend::compile_training_step).
struct TrainingRecipe {
  /// The scalar loss of the model's outputs against the targets (the model's
  /// natural loss, or the harness's documented reduction when it has none).
  std::function<torch::Tensor(const c10::IValue& outputs,
                              const std::vector<torch::Tensor>& targets)>
      loss;
  /// CPU tensors the loss scores the outputs against (labels); may be empty.
  /// A backend moves them to its device once.
  std::vector<torch::Tensor> targets;
  /// An optimizer over the given parameters, wherever they live.
  std::function<std::unique_ptr<torch::optim::Optimizer>(std::vector<torch::Tensor>)>
      make_optimizer;
  /// "sgd" or "adam": a backend that replays a captured iteration must know
  /// whether the optimizer's constants change from step to step (Adam's do).
  std::string optimizer_name;
};

/// One training iteration compiled as a whole: zero-grad, forward, loss,
/// backward, optimizer step. run() returns (outputs, loss) on the CPU.
class CompiledTrainingStep : public CompiledModel {
 public:
  /// Parameters after the last step, then their gradients (zeros where none),
  /// on the CPU, in Model::parameters() order.
  virtual std::vector<torch::Tensor> parameters_and_gradients() = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  /// What --backend= takes: the name it was registered under (a built-in's
  /// registration line, or TRACEBENCH_REGISTER_BACKEND).
  virtual std::string name() const { return registered_name_; }
  /// One line for `tracebench list`.
  virtual std::string description() const = 0;
  /// The runtime behind it on this machine, with its version and language
  /// ("ONNX Runtime 1.32.0 (Python 3.11.2)"), or why it is missing, starting
  /// "missing: "; for `tracebench list`.
  virtual std::string runtime() const { return libtorch_runtime(); }
  /// Whether compile() accepts Mode::kTraining: the compiled model's outputs
  /// must then stay connected to the model's parameters through autograd.
  virtual bool supports_training() const { return false; }
  /// Whether --amp applies: CPU autocast only changes ops on CPU tensors, so a
  /// backend computing on another device would silently run float32.
  virtual bool supports_amp() const { return true; }
  /// Whether compile() traces the model (records the ops one call runs):
  /// control flow in the model is then baked in as the example inputs took it.
  virtual bool traces_model() const { return false; }
  /// Why compiled instances of this backend cannot run at the same time on
  /// several threads (--streams), or "" when they can: each stream gets an
  /// instance of its own, so only state shared between instances matters.
  virtual std::string concurrent_streams_unsupported() const { return ""; }
  /// See Numerics: kExact unless the backend lowers precision itself.
  virtual Numerics numerics() const { return Numerics::kExact; }
  /// Compiles `model`. May throw: the runner turns that into a `fail_to_run` row.
  virtual std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) = 0;

  /// For backends whose parameters live outside the model (a lazy device): the
  /// whole training iteration, optimizer included. nullptr (the default) means
  /// the harness builds the iteration around compile(Mode::kTraining) and
  /// updates the model's own parameters.
  virtual std::unique_ptr<CompiledTrainingStep> compile_training_step(
      Model& /*model*/, const CompileOptions& /*options*/, const TrainingRecipe& /*recipe*/) {
    return nullptr;
  }

 private:
  // make_backend (src/backends/registry.h) names every instance it makes.
  friend std::unique_ptr<Backend> make_backend(const std::string& name);
  std::string registered_name_;
};

/// The symbol prefix the plugin loader looks for in a plugin's dynamic symbol
/// table: one extern "C" factory per backend, `tracebench_backend_<NAME>`.
inline constexpr const char* kBackendFactoryPrefix = "tracebench_backend_";

}  // namespace tracebench

/// Exports a factory for backend CLASS under the name NAME (an identifier: it is
/// what --backend= takes), so that `--backend-plugin FILE` registers it. CLASS
/// must be default-constructible and derive from tracebench::Backend; its
/// name() is #NAME.
#define TRACEBENCH_REGISTER_BACKEND(NAME, CLASS)     \
  extern "C" __attribute__((visibility("default")))  \
  tracebench::Backend* tracebench_backend_##NAME() { \
    return new CLASS();                              \
  }
