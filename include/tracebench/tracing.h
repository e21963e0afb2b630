#pragma once
/// Helpers for backend plugins that work on TorchScript graphs: record a
/// model's forward pass with the JIT tracer, and run a graph. Header-only, so
/// a plugin needs nothing from tracebench but its headers.

#include <torch/csrc/jit/frontend/tracer.h>
#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/passes/dead_code_elimination.h>
#include <torch/csrc/jit/runtime/graph_executor.h>

#include <memory>
#include <string>
#include <vector>

#include "tracebench/backend.h"

namespace tracebench {

/// Traces `model` on `inputs`. Parameters and buffers become graph constants,
/// so none may require grad (the runner turns grad off for inference). The
/// graph's inputs are `inputs`; its one output is forward's result.
inline std::shared_ptr<torch::jit::Graph> trace_model_graph(Model& model,
                                                            const std::vector<c10::IValue>& inputs) {
  for (const auto& tensor : model.tensors()) {
    TORCH_CHECK(!tensor.requires_grad(), "tracing with constant parameters needs requires_grad off");
  }
  auto forward = [&model](torch::jit::Stack stack) -> torch::jit::Stack {
    return {model.forward(stack)};
  };
  auto traced = torch::jit::tracer::trace(
      inputs, forward, [](const torch::autograd::Variable&) { return std::string(); },
      /*strict=*/false, /*force_outplace=*/false);
  auto graph = traced.first->graph;
  torch::jit::EliminateDeadCode(graph);
  return graph;
}

/// A compiled model that runs a graph through the JIT's graph executor.
class GraphExecutorModel : public CompiledModel {
 public:
  explicit GraphExecutorModel(std::shared_ptr<torch::jit::Graph> graph)
      : executor_(std::move(graph), "forward") {}
  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    torch::jit::Stack stack(inputs.begin(), inputs.end());
    executor_.run(stack);
    return stack.at(0);
  }

 private:
  torch::jit::GraphExecutor executor_;
};

}  // namespace tracebench
