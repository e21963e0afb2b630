// int8_dynamic: dynamic int8 quantization of the linear layers, what Python's
// torch.ao.quantization.quantize_dynamic does, done on the frozen graph:
//   - each aten::linear with a constant weight becomes
//     quantized::linear_prepack(W_int8, b) + quantized::linear_dynamic(x, packed):
//     the weight is quantized once per output channel (symmetric, the
//     per-channel dynamic qconfig's observer), the activations on every call
//     from their own range;
//   - constant propagation runs the prepack once;
//   - then ofi's passes (oneDNN layouts from each convolution on), so a
//     network's convolutions run as in ofi.
// The quantized engine is oneDNN (this LibTorch's default; it has no fbgemm).
// On a CPU without VNNI the activations are quantized to 7 bits (reduce_range,
// PyTorch's x86 default): full 8-bit ones overflow the 16-bit sums there (a
// linear layer's error on an AVX2-only EPYC: 17% with 8 bits, 2% with 7).
// Weights lose precision: the accuracy rule is the int8 one
// (accuracy/tolerance.cpp).

#include <ATen/Context.h>
#include <torch/csrc/jit/ir/constants.h>
#include <torch/csrc/jit/passes/constant_propagation.h>

#include <algorithm>
#include <limits>

#include "backends/graph/frozen_graph.h"
#include "backends/int8_cpu.h"
#include "backends/registry.h"
#include "tracebench/tracing.h"

namespace tracebench {

namespace {

using torch::jit::Node;

// Per output channel (row), symmetric: scale = max|w| / 127.5, zero point 0,
// as PerChannelMinMaxObserver(qint8, per_channel_symmetric) computes.
at::Tensor quantize_weight(const at::Tensor& weight) {
  const auto row_range = weight.abs().amax(/*dim=*/1).to(at::kDouble);
  const auto scales = (row_range / 127.5).clamp_min(std::numeric_limits<float>::epsilon());
  const auto zero_points = at::zeros({weight.size(0)}, at::kLong);
  return at::quantize_per_channel(weight, scales, zero_points, /*axis=*/0, at::kQInt8);
}

// Returns whether it rewrote `linear` (always).
bool quantize_linear(Node* linear, const at::Tensor& weight, bool reduce_range) {
  auto& graph = *linear->owningGraph();
  torch::jit::WithInsertPoint before(linear);
  // Graph::insert matches each op's schema, which types the outputs.
  auto* packed = graph.insert(c10::Symbol::fromQualString("quantized::linear_prepack"),
                              {graph.insertConstant(quantize_weight(weight)), linear->input(2)});
  auto* quantized = graph.insert(c10::Symbol::fromQualString("quantized::linear_dynamic"),
                                 {linear->input(0), packed, reduce_range});
  quantized->setType(linear->output()->type());
  linear->output()->replaceAllUsesWith(quantized);
  linear->destroy();
  return true;
}

class Int8DynamicBackend final : public Backend {
 public:
  bool traces_model() const override { return true; }
  Numerics numerics() const override { return Numerics::kInt8; }
  std::string description() const override {
    return "ofi with linear layers as dynamic int8 (oneDNN, per-channel weights)";
  }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    const auto engines = at::globalContext().supportedQEngines();
    if (std::find(engines.begin(), engines.end(), at::kONEDNN) == engines.end()) {
      throw std::runtime_error("int8_dynamic: this LibTorch has no oneDNN quantized engine");
    }
    at::globalContext().setQEngine(at::kONEDNN);
    auto graph = inference_graph(model, options);
    freeze_graph(graph);
    // With no linear layer (a convolutional network) this is ofi; the
    // int8_linears counter says so.
    const bool reduce_range = int8_needs_reduced_range();
    const int linears =
        rewrite_constant_linears(*graph, [reduce_range](Node* linear, const at::Tensor& weight) {
          return quantize_linear(linear, weight, reduce_range);
        });
    torch::jit::ConstantPropagation(graph, /*ignore_custom_classes=*/false);
    const auto saveable = optimize_for_inference_keeping_saveable(graph);
    auto compiled = std::make_unique<GraphExecutorModel>(graph);
    compiled->set_saveable_graph(saveable);
    compiled->set_counter(kInt8LinearsCounter, linears);
    if (reduce_range && linears > 0) {
      compiled->add_warning(int8_reduced_range_warning());
    }
    return compiled;
  }
};

const BuiltinBackend kInt8Dynamic("int8_dynamic",
                                  [] { return std::make_unique<Int8DynamicBackend>(); });

}  // namespace

}  // namespace tracebench
