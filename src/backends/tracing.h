#pragma once
// Records a model's forward pass into a TorchScript graph with the JIT tracer,
// and runs such graphs. Shared by every tracing backend.

#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/runtime/graph_executor.h>

#include <memory>
#include <vector>

#include "tracebench/backend.h"

namespace tracebench {

/// Traces `model` on `inputs`. Parameters and buffers become graph constants,
/// so they must not require grad (inference). The graph's inputs are `inputs`.
std::shared_ptr<torch::jit::Graph> trace_with_constant_parameters(
    Model& model, const std::vector<c10::IValue>& inputs);

/// Runs a graph through the JIT's graph executor (profiling + optimization).
class GraphModel final : public CompiledModel {
 public:
  explicit GraphModel(std::shared_ptr<torch::jit::Graph> graph);
  c10::IValue run(const std::vector<c10::IValue>& inputs) override;

 private:
  torch::jit::GraphExecutor executor_;
};

}  // namespace tracebench
