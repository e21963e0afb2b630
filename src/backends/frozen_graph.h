#pragma once
// The graph passes behind the ofi backend, exposed so that tests can check
// what they do to a graph.

#include <torch/csrc/jit/ir/ir.h>

#include <memory>

namespace tracebench {

/// Applies torch.jit.freeze's and torch.jit.optimize_for_inference's passes to
/// a graph whose parameters are already constants: conv/linear-bn folding,
/// dropout removal, conv-add-relu fusion, oneDNN (MKLDNN) layouts.
void optimize_frozen_graph(std::shared_ptr<torch::jit::Graph>& graph);

}  // namespace tracebench
