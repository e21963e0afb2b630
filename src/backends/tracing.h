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

/// Traces `model` on `inputs` with every parameter and buffer as a graph
/// input: the graph's inputs are model.tensors() followed by `inputs`. Used
/// for training, where autograd must reach the live parameters.
std::shared_ptr<torch::jit::Graph> trace_with_tensor_inputs(Model& model,
                                                            const std::vector<c10::IValue>& inputs);

/// Runs a graph through the JIT's graph executor (profiling + optimization).
/// With `model`, the graph came from trace_with_tensor_inputs and each call
/// passes the model's current tensors ahead of the inputs.
class GraphModel final : public CompiledModel {
 public:
  explicit GraphModel(std::shared_ptr<torch::jit::Graph> graph, Model* model = nullptr);
  c10::IValue run(const std::vector<c10::IValue>& inputs) override;

 private:
  torch::jit::GraphExecutor executor_;
  Model* model_;
};

}  // namespace tracebench
