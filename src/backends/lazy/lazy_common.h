#pragma once
// Shared machinery of the lazy-tensor-core (LTC) backends, lazy_trace_everytime
// and lazy_trace_once: LibTorch's TorchScript LTC backend, placing a model's
// parameters on the lazy device, and recording its forward pass lazily.
//
// How parameters reach the lazy device: torch::nn::Module::to(kLazy) fails
// (set_data refuses the type change), and TorchScript-loaded modules would need
// a different route again. Instead the model is traced once, on the CPU, with
// the JIT tracer into a graph whose inputs are [model tensors..., inputs...]
// (the model's parameter and buffer tensors are passed as tracer inputs, so the
// tracer maps them to graph inputs instead of baking them in as constants).
// That graph is then *interpreted* (torch::jit::Code + InterpreterState, no
// graph optimizations) with lazy tensors: the parameters are copied to the lazy
// device once, the inputs on every call. Each interpretation records the
// model's ops as lazy IR, which is what an LTC user's eager-style forward would
// record. It works the same for torch::nn models and TorchScript modules and
// needs nothing model-specific.

#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/runtime/interpreter.h>
#include <torch/csrc/lazy/backend/backend_device.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tracebench/backend.h"
#include "tracebench/model.h"

namespace tracebench::lazy {

/// Why the lazy backends take no --streams: LTC keeps one process-wide device,
/// its graph executor and trace state, which every compiled instance shares.
inline constexpr const char* kOneLazyDevice =
    "runs one call at a time: every instance records on LTC's one process-wide lazy device; "
    "drop --streams";

/// Registers LibTorch's TorchScript LTC backend (once per process) and checks
/// that it computes on the CPU. Throws if it would use CUDA (LTC_TS_CUDA).
void ensure_lazy_backend();

/// The lazy device tensors are moved to: torch::kLazy, index 0.
c10::Device lazy_device();
torch::lazy::BackendDevice lazy_backend_device();

/// The model's forward pass as a graph over [resident tensors..., inputs...],
/// its inputs flat (flat_inputs.h: a tuple of tensors is one input per
/// tensor, and every call passes flat_inputs of its inputs). Resident tensors
/// are the model's tensors() followed by any tensor constants the trace
/// contained (lifted to inputs so they can live on the lazy device too).
struct ParameterizedGraph {
  std::shared_ptr<torch::jit::Graph> graph;
  std::vector<at::Tensor> resident;  // CPU tensors, one per leading graph input
};

/// Traces `model` on `inputs` with its tensors as graph inputs; CPU device
/// constants in the trace are redirected to the lazy device. A training graph
/// is also made differentiable by LTC (see give_convolutions_a_zero_bias).
ParameterizedGraph trace_with_parameter_inputs(Model& model, const std::vector<c10::IValue>& inputs,
                                               Mode mode = Mode::kInference);

/// For inference: tracebench/tracing.h's shape_set_graph where there is one
/// (its tensor constants the residents), else trace_with_parameter_inputs on
/// the example inputs.
ParameterizedGraph inference_graph_with_parameter_inputs(Model& model,
                                                         const CompileOptions& options);

/// Factory ops in a trace carry the device they ran on as a constant: points
/// every device constant of type `from` at `to` instead (top-level nodes).
void redirect_device_constants(torch::jit::Graph& graph, c10::DeviceType from, c10::Device to);

/// A traced forward pass whose resident tensors live on the lazy device.
/// record() interprets the graph with lazy tensors, which records lazy IR.
class LazyProgram {
 public:
  explicit LazyProgram(ParameterizedGraph traced);

  /// Copies the tensor inputs to the lazy device and records one forward pass.
  /// The result holds lazy tensors with pending IR.
  c10::IValue record(const std::vector<c10::IValue>& cpu_inputs) const;

  /// Records one forward pass on inputs already on the lazy device.
  c10::IValue record_lazy(const std::vector<c10::IValue>& lazy_inputs) const;

  /// The resident tensors on the lazy device (in graph-input order); one
  /// LTC cannot hold (lazy_can_hold) stays on the CPU.
  const std::vector<at::Tensor>& resident_lazy() const { return resident_lazy_; }
  /// The same tensors on the CPU.
  const std::vector<at::Tensor>& resident_cpu() const { return resident_cpu_; }

  const std::shared_ptr<torch::jit::Graph>& graph() const { return graph_; }

 private:
  std::shared_ptr<torch::jit::Graph> graph_;
  torch::jit::Code code_;
  std::vector<at::Tensor> resident_cpu_;
  std::vector<at::Tensor> resident_lazy_;
};

/// A copy of `tensor` on the lazy device that already holds its device data.
at::Tensor to_lazy_data(const at::Tensor& tensor);

/// Whether LTC can hold `tensor`: it has kernels for strided tensors only, so
/// the lazy backends keep sparse and nested tensors, and the ops that read
/// them, on the CPU (lazy_segments.h).
bool lazy_can_hold(const at::Tensor& tensor);
/// `tensor` on the lazy device where LTC can hold it, else itself.
at::Tensor to_lazy_where_it_can(const at::Tensor& tensor);

/// Tensor inputs moved to the lazy device where LTC can hold them; other
/// values unchanged.
std::vector<c10::IValue> to_lazy(const std::vector<c10::IValue>& inputs);

/// The tensors of a (nested) tensor / tuple / list / dict value, depth first.
void flatten_tensors(const c10::IValue& value, std::vector<at::Tensor>& out);
/// `like` with its tensors replaced, in flatten_tensors order, from `tensors`.
c10::IValue unflatten_tensors(const c10::IValue& like, const std::vector<at::Tensor>& tensors,
                              size_t& next);

/// LTC's per-op eager-fallback counters ("aten::<op>": ops without a lazy
/// lowering that ran on the CPU instead), name -> count.
std::map<std::string, int64_t> eager_fallback_counts();
/// The ops that fell back since `before` (an eager_fallback_counts()
/// snapshot), each with how many times.
std::map<std::string, int64_t> fallbacks_since(const std::map<std::string, int64_t>& before);

/// Process-wide LTC compile counters (torch::lazy metrics).
struct CompileCounts {
  int64_t cached = 0;    // CachedCompile: graph hash found in the computation cache
  int64_t uncached = 0;  // UncachedCompile: graph lowered and compiled
  static CompileCounts now();
  CompileCounts operator-(const CompileCounts& other) const {
    return {cached - other.cached, uncached - other.uncached};
  }
  CompileCounts& operator+=(const CompileCounts& other) {
    cached += other.cached;
    uncached += other.uncached;
    return *this;
  }
};

}  // namespace tracebench::lazy
