#include "backends/frozen_graph.h"

#include <torch/csrc/jit/passes/constant_propagation.h>
#include <torch/csrc/jit/passes/frozen_conv_add_relu_fusion.h>
#include <torch/csrc/jit/passes/frozen_graph_optimizations.h>
#include <torch/csrc/jit/passes/frozen_linear_transpose.h>
#include <torch/csrc/jit/passes/frozen_ops_to_mkldnn.h>
#include <torch/csrc/jit/passes/graph_rewrite_helper.h>

namespace tracebench {

void optimize_frozen_graph(std::shared_ptr<torch::jit::Graph>& graph) {
  // The C++ tracer records aten::_convolution, which the conv-bn folding does
  // not match; rewrite to aten::conv2d etc. first.
  torch::jit::graph_rewrite_helper::replaceConvolutionWithAtenConv(graph);
  torch::jit::ConstantPropagation(graph);
  // What torch.jit.freeze runs: dropout removal, conv/linear-bn and
  // conv-add/mul folding, concat of linears.
  torch::jit::OptimizeFrozenGraph(graph, /*optimize_numerics=*/true);
  // What torch.jit.optimize_for_inference adds on CPU.
  torch::jit::FuseFrozenConvAddRelu(graph);
  torch::jit::ConvertFrozenOpsToMKLDNN(graph);
  torch::jit::FrozenLinearTranspose(graph);
}

}  // namespace tracebench
