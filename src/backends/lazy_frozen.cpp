#include "backends/lazy_frozen.h"

#include <torch/csrc/jit/ir/constants.h>
#include <torch/csrc/jit/passes/constant_propagation.h>
#include <torch/csrc/jit/passes/dead_code_elimination.h>
#include <torch/csrc/lazy/core/shape.h>
#include <torch/csrc/lazy/ts_backend/ts_backend_impl.h>
#include <torch/csrc/lazy/ts_backend/ts_lowering_context.h>

#include "backends/frozen_graph.h"

namespace tracebench::lazy {

namespace {

using torch::jit::Graph;
using torch::jit::Node;
using torch::jit::Value;

// What LTC's TS backend pushes for device data when it executes a
// computation: the scalar of a scalar constant, else the tensor.
c10::IValue value_of(const BackendDataPtr& data) {
  auto& ts_data = static_cast<torch::lazy::TSData&>(*data);
  if (ts_data.scalar.has_value()) return c10::IValue(*ts_data.scalar);
  return ts_data.data();
}

void substitute_resident_data(Graph& graph, const Capture& capture,
                              const std::vector<BackendDataPtr>& resident) {
  torch::jit::WithInsertPoint at_start(graph.block()->nodes().front());
  for (size_t i = capture.parameters.size(); i-- > 0;) {
    const Source& source = capture.parameters[i];
    if (source.kind == Source::kInput) continue;
    const auto& data = source.kind == Source::kResident ? resident.at(source.index) : source.data;
    graph.inputs()[i]->replaceAllUsesWith(graph.insertConstant(value_of(data)));
    graph.eraseInput(i);
  }
}

bool is_constant_equal(Value* value, double expected) {
  auto constant = torch::jit::toIValue(value);
  if (!constant) return false;
  if (constant->isInt()) return static_cast<double>(constant->toInt()) == expected;
  return constant->isDouble() && constant->toDouble() == expected;
}

bool is_constant_false(Value* value) {
  auto constant = torch::jit::toIValue(value);
  return constant && constant->isBool() && !constant->toBool();
}

c10::optional<at::Tensor> constant_tensor(Value* value) {
  auto constant = torch::jit::toIValue(value);
  if (!constant || !constant->isTensor()) return c10::nullopt;
  return constant->toTensor();
}

/// Replaces `node`'s first output by the output of a new `kind` node over
/// `inputs`, inserted before it. `node`'s other outputs must be unused.
void replace_with(Node* node, const char* kind, const std::vector<Value*>& inputs) {
  for (size_t i = 1; i < node->outputs().size(); ++i) {
    if (node->output(i)->hasUses()) return;
  }
  Graph& graph = *node->owningGraph();
  Node* replacement = graph.create(c10::Symbol::fromQualString(kind), inputs, 1);
  replacement->insertBefore(node);
  replacement->output()->setType(node->output(0)->type());
  node->output(0)->replaceAllUsesWith(replacement->output());
  node->destroy();
}

// aten::convolution(x, w, b, stride, padding, dilation, transposed=False,
// output_padding, groups) -> aten::conv{1,2,3}d(x, w, b, stride, padding,
// dilation, groups): conv-bn folding and the oneDNN conversion match those.
void rewrite_convolution(Node* node) {
  if (!is_constant_false(node->input(6))) return;
  auto stride = torch::jit::toIValue(node->input(3));
  if (!stride || !stride->isIntList()) return;
  static const char* kByRank[] = {nullptr, "aten::conv1d", "aten::conv2d", "aten::conv3d"};
  const size_t rank = stride->toIntList().size();
  if (rank < 1 || rank > 3) return;
  replace_with(node, kByRank[rank],
               {node->input(0), node->input(1), node->input(2), node->input(3), node->input(4),
                node->input(5), node->input(8)});
}

// aten::native_batch_norm(x, w, b, mean, var, training=False, momentum, eps),
// its saved statistics unused -> aten::batch_norm(..., cudnn_enabled).
void rewrite_batch_norm(Node* node) {
  if (!is_constant_false(node->input(5))) return;
  Graph& graph = *node->owningGraph();
  torch::jit::WithInsertPoint before(node);
  auto inputs = node->inputs().vec();
  inputs.push_back(graph.insertConstant(true));
  replace_with(node, "aten::batch_norm", inputs);
}

// aten::addmm(b, x, Wt, beta=1, alpha=1) and aten::mm(x, Wt), Wt a constant
// (the transposed weight of a linear layer after constant propagation) ->
// aten::linear(x, W, b): linear is what the oneDNN conversion and ofi's
// linear-transpose pass handle.
void rewrite_matmul_of_constant(Node* node, bool with_bias) {
  Value* bias = with_bias ? node->input(0) : nullptr;
  Value* x = node->input(with_bias ? 1 : 0);
  auto transposed_weight = constant_tensor(node->input(with_bias ? 2 : 1));
  if (!transposed_weight || transposed_weight->dim() != 2) return;
  if (with_bias) {
    auto bias_tensor = constant_tensor(bias);
    if (!bias_tensor || bias_tensor->dim() != 1 || !is_constant_equal(node->input(3), 1) ||
        !is_constant_equal(node->input(4), 1)) {
      return;
    }
  }
  Graph& graph = *node->owningGraph();
  torch::jit::WithInsertPoint before(node);
  Value* weight = graph.insertConstant(transposed_weight->t().contiguous());
  if (!with_bias) bias = graph.insertConstant(c10::IValue());
  replace_with(node, "aten::linear", {x, weight, bias});
}

// aten::max_pool2d_with_indices, its indices unused -> aten::max_pool2d (the
// same arguments), which has a oneDNN kernel.
void rewrite_max_pool(Node* node) { replace_with(node, "aten::max_pool2d", node->inputs().vec()); }

void rewrite_functional_ops(Graph& graph) {
  static const auto kConvolution = c10::Symbol::fromQualString("aten::convolution");
  static const auto kNativeBatchNorm = c10::Symbol::fromQualString("aten::native_batch_norm");
  static const auto kAddmm = c10::Symbol::fromQualString("aten::addmm");
  static const auto kMm = c10::Symbol::fromQualString("aten::mm");
  static const auto kMaxPool = c10::Symbol::fromQualString("aten::max_pool2d_with_indices");
  // Collected first: the rewrites insert and destroy nodes.
  std::vector<Node*> nodes(graph.nodes().begin(), graph.nodes().end());
  for (Node* node : nodes) {
    if (node->kind() == kConvolution)
      rewrite_convolution(node);
    else if (node->kind() == kNativeBatchNorm)
      rewrite_batch_norm(node);
    else if (node->kind() == kAddmm)
      rewrite_matmul_of_constant(node, /*with_bias=*/true);
    else if (node->kind() == kMm)
      rewrite_matmul_of_constant(node, /*with_bias=*/false);
    else if (node->kind() == kMaxPool)
      rewrite_max_pool(node);
  }
}

std::shared_ptr<Graph> ltc_graph_of(const Capture& capture) {
  auto* computation = dynamic_cast<torch::lazy::TSComputation*>(capture.computation.get());
  TORCH_CHECK(computation, "lazy_trace_once: the LTC backend is not the TorchScript one");
  return computation->graph();
}

std::vector<size_t> input_indices(const Capture& capture) {
  std::vector<size_t> indices;
  for (const auto& source : capture.parameters) {
    if (source.kind == Source::kInput) indices.push_back(source.index);
  }
  return indices;
}

}  // namespace

std::shared_ptr<Graph> freeze_ltc_graph(const std::shared_ptr<Graph>& ltc_graph,
                                        const Capture& capture,
                                        const std::vector<BackendDataPtr>& resident) {
  auto graph = ltc_graph->copy();
  substitute_resident_data(*graph, capture, resident);
  // Drops what LTC lowered but nothing reads (the tuples of multi-output
  // ops), then folds the weights' detach/transpose copies into constants.
  torch::jit::EliminateDeadCode(graph);
  torch::jit::ConstantPropagation(graph);
  rewrite_functional_ops(*graph);
  torch::jit::EliminateDeadCode(graph);
  optimize_frozen_graph(graph);
  return graph;
}

FrozenComputation::FrozenComputation(const Capture& capture,
                                     const std::vector<BackendDataPtr>& resident)
    : inputs_(input_indices(capture)),
      graph_(freeze_ltc_graph(ltc_graph_of(capture), capture, resident)),
      executor_(graph_, "lazy_trace_once") {}  // the executor optimizes a copy of its own

std::vector<BackendDataPtr> FrozenComputation::run(const std::vector<c10::IValue>& cpu_inputs) {
  torch::jit::Stack stack;
  stack.reserve(inputs_.size());
  for (size_t index : inputs_) stack.push_back(cpu_inputs.at(index));
  executor_.run(stack);
  const auto device = lazy_backend_device();
  std::vector<BackendDataPtr> results;
  results.reserve(stack.size());
  for (const auto& value : stack) {
    const auto& tensor = value.toTensor();
    results.push_back(std::make_shared<torch::lazy::TSData>(
        tensor, torch::lazy::Shape(tensor.scalar_type(), tensor.sizes()), device));
  }
  return results;
}

}  // namespace tracebench::lazy
