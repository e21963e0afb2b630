#include "backends/graph/frozen_graph.h"

#include <torch/csrc/jit/ir/constants.h>
#include <torch/csrc/jit/passes/constant_propagation.h>
#include <torch/csrc/jit/passes/dead_code_elimination.h>
#include <torch/csrc/jit/passes/frozen_conv_add_relu_fusion.h>
#include <torch/csrc/jit/passes/frozen_graph_optimizations.h>
#include <torch/csrc/jit/passes/frozen_linear_transpose.h>
#include <torch/csrc/jit/passes/frozen_ops_to_mkldnn.h>
#include <torch/csrc/jit/passes/graph_rewrite_helper.h>

#include <algorithm>
#include <cctype>

namespace tracebench {

namespace {

using torch::jit::Graph;
using torch::jit::Node;
using torch::jit::Value;

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

// aten::addmm(b, x, Wt, beta=1, alpha=1), aten::mm(x, Wt) and aten::matmul(x,
// Wt), Wt a constant (the transposed weight of a linear layer after constant
// propagation: the C++ frontend's torch::nn::Linear records addmm for 2-d
// inputs, matmul otherwise; LTC lowers to addmm and mm) -> aten::linear(x, W,
// b): linear is what the oneDNN conversion and ofi's linear-transpose pass
// handle.
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

// The functional ATen ops that LibTorch's C++ frontend and LTC record, rewritten
// to the ops a traced Python module has, which the frozen-graph passes match.
void rewrite_functional_ops(Graph& graph) {
  static const auto kConvolution = c10::Symbol::fromQualString("aten::convolution");
  static const auto kNativeBatchNorm = c10::Symbol::fromQualString("aten::native_batch_norm");
  static const auto kAddmm = c10::Symbol::fromQualString("aten::addmm");
  static const auto kMm = c10::Symbol::fromQualString("aten::mm");
  static const auto kMatmul = c10::Symbol::fromQualString("aten::matmul");
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
    else if (node->kind() == kMm || node->kind() == kMatmul)
      rewrite_matmul_of_constant(node, /*with_bias=*/false);
    else if (node->kind() == kMaxPool)
      rewrite_max_pool(node);
  }
}

// Whether ofi's oneDNN step left nodes that torch.jit.load cannot read back
// (prim::ConstantMKLDNNTensor, prim::mkldnn_convolution, ...).
bool holds_onednn_nodes(const Graph& graph) {
  for (const auto* node : graph.nodes()) {
    std::string kind = node->kind().toQualString();
    std::transform(kind.begin(), kind.end(), kind.begin(), ::tolower);
    if (kind.rfind("prim::", 0) == 0 && kind.find("mkldnn") != std::string::npos) return true;
  }
  return false;
}

}  // namespace

void freeze_graph(std::shared_ptr<torch::jit::Graph>& graph) {
  // The C++ tracer records aten::_convolution, which the conv-bn folding does
  // not match; rewrite to aten::conv2d etc. first.
  torch::jit::graph_rewrite_helper::replaceConvolutionWithAtenConv(graph);
  // Folds the weights' detach/transpose copies into constants, which the
  // rewrite of addmm(b, x, W.t()) into linear needs.
  torch::jit::ConstantPropagation(graph);
  rewrite_functional_ops(*graph);
  torch::jit::EliminateDeadCode(graph);
  // What torch.jit.freeze runs: dropout removal, conv/linear-bn and
  // conv-add/mul folding, concat of linears.
  torch::jit::OptimizeFrozenGraph(graph, /*optimize_numerics=*/true);
}

void optimize_for_inference_passes(std::shared_ptr<torch::jit::Graph>& graph,
                                   const LinearRewrite& before_linear_transpose) {
  torch::jit::FuseFrozenConvAddRelu(graph);
  torch::jit::ConvertFrozenOpsToMKLDNN(graph);
  if (before_linear_transpose) before_linear_transpose(*graph);
  torch::jit::FrozenLinearTranspose(graph);
}

SaveableGraph optimize_for_inference_keeping_saveable(
    std::shared_ptr<torch::jit::Graph>& graph, const LinearRewrite& before_linear_transpose) {
  auto frozen = graph->copy();
  optimize_for_inference_passes(graph, before_linear_transpose);
  if (holds_onednn_nodes(*graph)) return {frozen, "torch.jit.optimize_for_inference", {}};
  return {graph, "", {}};
}

int rewrite_constant_linears(Graph& graph,
                             const std::function<bool(Node*, const at::Tensor&)>& rewrite) {
  // Collected first: a rewrite destroys the node.
  std::vector<Node*> linears;
  for (Node* node : graph.nodes()) {
    if (node->kind() == at::aten::linear) linears.push_back(node);
  }
  int rewritten = 0;
  for (Node* linear : linears) {
    const auto weight = torch::jit::toIValue(linear->input(1));
    if (!weight || !weight->isTensor()) continue;
    const auto& tensor = weight->toTensor();
    if (tensor.layout() != at::kStrided || tensor.dim() != 2 ||
        tensor.scalar_type() != at::kFloat) {
      continue;
    }
    rewritten += rewrite(linear, tensor) ? 1 : 0;
  }
  return rewritten;
}

void optimize_frozen_graph(std::shared_ptr<torch::jit::Graph>& graph) {
  freeze_graph(graph);
  optimize_for_inference_passes(graph);
}

}  // namespace tracebench
