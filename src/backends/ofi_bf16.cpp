// ofi_bf16: the model traced under CPU autocast to bfloat16, so that the
// graph casts activations to bfloat16 before each convolution, linear and
// matmul (autocast's lower-precision list) and the weights' casts fold into
// bfloat16 constants; then the frozen-graph passes of ofi. ofi's oneDNN
// conversion skips bfloat16 convolutions, which run on ATen's own oneDNN
// kernels instead. Under --shape-set a model from TorchScript runs its own
// graph, frozen, with the casts the JIT's autocast pass inserts: the same
// casts, where a trace would fix the sizes the model computes with.
//
// Fast where the CPU has a native bfloat16 dot product (AVX-512 BF16, AMX);
// elsewhere oneDNN emulates it, and the row says so.

#include <torch/csrc/jit/passes/autocast.h>

#include "backends/autocast_scope.h"
#include "backends/bf16_cpu.h"
#include "backends/graph/frozen_graph.h"
#include "backends/registry.h"
#include "tracebench/tracing.h"
#include "util/error_text.h"
#include "util/tensor_tree.h"
#include "util/text.h"

namespace tracebench {

namespace {

// The dtype of each tensor the model returns, in for_each_tensor's order.
using OutputDtypes = std::vector<c10::ScalarType>;

OutputDtypes output_dtypes(Model& model, const std::vector<c10::IValue>& inputs) {
  OutputDtypes dtypes;
  for_each_tensor(model.forward(inputs),
                  [&dtypes](const at::Tensor& tensor) { dtypes.push_back(tensor.scalar_type()); });
  return dtypes;
}

// The graph's outputs are bfloat16 where the last op was autocast's; the
// caller gets the dtypes the model itself returns (float32, or bfloat16
// under --amp and --bfloat16).
c10::IValue as_model_returns(const c10::IValue& value, const OutputDtypes& dtypes) {
  size_t next = 0;
  return map_tensors(value, [&](const at::Tensor& tensor) {
    const auto dtype = next < dtypes.size() ? dtypes[next] : tensor.scalar_type();
    ++next;
    return tensor.scalar_type() == dtype ? tensor : tensor.to(dtype);
  });
}

class Bf16GraphModel final : public GraphExecutorModel {
 public:
  Bf16GraphModel(std::shared_ptr<torch::jit::Graph> graph, bool optimized, OutputDtypes dtypes)
      : GraphExecutorModel(std::move(graph)), optimized_(optimized), dtypes_(std::move(dtypes)) {}
  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    return as_model_returns(GraphExecutorModel::run(inputs), dtypes_);
  }
  std::vector<BackendWarning> warnings() const override {
    std::vector<BackendWarning> said;
    if (const auto emulated = bf16_emulated_warning()) said.push_back(*emulated);
    if (!optimized_) {
      said.push_back({"bf16_unfrozen",
                      "the frozen-graph passes left mixed float32/bfloat16 operands in this "
                      "model, so it runs the autocast trace without them"});
    }
    return said;
  }

 private:
  bool optimized_;
  OutputDtypes dtypes_;
};

// What autocast cannot run by design: an op outside its lists meets a
// bfloat16 operand and a float32 one ("expected scalar type BFloat16 but
// found Float", "index_add_(): self (Float) and source (BFloat16) must have
// the same scalar type"). Anything else is this model failing, not
// unsupported.
bool is_mixed_dtype_error(const std::string& error) {
  return error.find("BFloat16") != std::string::npos &&
         (error.find("scalar type") != std::string::npos ||
          error.find("dtype") != std::string::npos);
}

// Throws `error` as the row's reason: unsupported when autocast's lists
// cause it, a failure otherwise.
[[noreturn]] void throw_autocast_failure(const std::string& error) {
  if (!is_mixed_dtype_error(error)) throw std::runtime_error("ofi_bf16: " + error);
  throw UnsupportedModel("ofi_bf16: the model does not run under bfloat16 autocast: " + error);
}

// The model on `graph` if it runs `inputs`, else nullptr and the first line
// of why in `error`. Three calls: the executor profiles the first and
// optimizes for the next ones, which is where mixed operands fail.
std::unique_ptr<Bf16GraphModel> model_that_runs(std::shared_ptr<torch::jit::Graph> graph,
                                                bool optimized, const OutputDtypes& dtypes,
                                                const std::vector<c10::IValue>& inputs,
                                                std::string& error) {
  auto model = std::make_unique<Bf16GraphModel>(std::move(graph), optimized, dtypes);
  try {
    for (int call = 0; call < 3; ++call) model->run(inputs);
    return model;
  } catch (const std::exception& failure) {
    error = describe_error(failure);
    return nullptr;
  }
}

// The graph with autocast's casts: under --shape-set a model from
// TorchScript's own graph, frozen (shape_set_graph), given them by the JIT's
// autocast pass, since a trace in C++ fixes the sizes the model computes
// with; otherwise the trace under autocast, which records them.
std::shared_ptr<torch::jit::Graph> graph_under_autocast(Model& model,
                                                        const CompileOptions& options) {
  AutocastScope autocast(Precision::kAmp);
  if (auto graph = shape_set_graph(model, options)) {
    torch::jit::Autocast(graph);
    return graph;
  }
  return trace_model_graph(model, options.example_inputs);
}

class OptimizeForInferenceBf16Backend final : public Backend {
 public:
  bool traces_model() const override { return true; }
  Numerics numerics() const override { return Numerics::kBFloat16; }
  std::string description() const override {
    return "ofi traced under bfloat16 autocast (needs avx512_bf16/AMX to be fast)";
  }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    std::shared_ptr<torch::jit::Graph> traced;
    try {
      traced = graph_under_autocast(model, options);
    } catch (const UnsupportedModel&) {
      throw;  // no trace at all, autocast or not
    } catch (const std::exception& error) {
      // Autocast casts only the ops on its lists, so an op outside them may
      // meet a bfloat16 operand and a float32 one.
      throw_autocast_failure(describe_error(error));
    }
    // Folding float32 batch-norm or bias constants into bfloat16 weights can
    // leave an op with operands of both types; then the trace runs as it is.
    auto optimized = traced->copy();
    freeze_graph(optimized);
    const auto saveable = optimize_for_inference_keeping_saveable(optimized);
    std::string error;
    const auto dtypes = output_dtypes(model, options.example_inputs);
    if (auto compiled = model_that_runs(optimized, true, dtypes, options.example_inputs, error)) {
      compiled->set_saveable_graph(saveable);
      return compiled;
    }
    if (auto compiled = model_that_runs(traced, false, dtypes, options.example_inputs, error)) {
      return compiled;
    }
    throw_autocast_failure(error);
  }
};

const BuiltinBackend kOfiBf16("ofi_bf16",
                              [] { return std::make_unique<OptimizeForInferenceBf16Backend>(); });

}  // namespace

}  // namespace tracebench
