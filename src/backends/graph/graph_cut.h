#pragma once
// Cutting consecutive top-level nodes out of a TorchScript graph as a graph of
// their own, to run parts of one traced forward pass by different means
// (lazy_trace_once's segments around ops it cannot capture).

#include <torch/csrc/jit/ir/ir.h>

#include <functional>
#include <memory>
#include <vector>

namespace tracebench {

/// Top-level nodes of a graph cut out as a graph of their own.
struct GraphPiece {
  /// Computes the nodes; returns one tuple holding `outputs`.
  std::shared_ptr<torch::jit::Graph> graph;
  /// Values of the whole graph the nodes read, one per piece input, in order.
  /// (Constants they read are copied into the piece instead.)
  std::vector<torch::jit::Value*> inputs;
  /// Values the nodes define that the whole graph reads after them (a later
  /// node or its return), one per tuple element.
  std::vector<torch::jit::Value*> outputs;
};

/// Cuts `nodes` (top-level nodes of their graph, in graph order) out as a
/// piece. Inputs for which `leads` holds come first, the rest after, each in
/// the order the nodes first read them.
GraphPiece cut_piece(
    const std::vector<torch::jit::Node*>& nodes,
    const std::function<bool(const torch::jit::Value*)>& leads = [](const torch::jit::Value*) {
      return false;
    });

/// Whether a value of `type` holds tensors inside a list, tuple, dict or
/// optional (not a tensor itself).
bool holds_nested_tensors(const c10::TypePtr& type);

}  // namespace tracebench
