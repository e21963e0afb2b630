#pragma once
// The lazy backends take a model's nested inputs (an RNN's state (h, c), a
// dict of tensors) as one graph input per tensor. A capture maps each lazy
// tensor it reads back to the graph input it came from; a tensor inside a
// tuple has no input of its own, and a replay would keep the first call's
// values for it.

#include <torch/csrc/jit/ir/ir.h>

#include <vector>

namespace tracebench::lazy {

/// `inputs` with each tuple, list or dict of tensors (nested ones included)
/// replaced by its tensors, depth first (util/tensor_tree.h's order); every
/// other input is kept. Inputs already flat come back unchanged.
std::vector<c10::IValue> flat_inputs(const std::vector<c10::IValue>& inputs);

/// Rewrites `graph`, whose inputs from position `first` on take `example`, to
/// take flat_inputs(example) there instead: each nested input becomes one
/// tensor input per tensor, put back together into its tuple, list or dict at
/// the top of the graph for the ops that read it.
void flatten_graph_inputs(torch::jit::Graph& graph, size_t first,
                          const std::vector<c10::IValue>& example);

}  // namespace tracebench::lazy
