#include "backends/tracing.h"

#include <torch/csrc/jit/frontend/tracer.h>
#include <torch/csrc/jit/passes/dead_code_elimination.h>

#include "tracebench/error.h"

namespace tracebench {

std::shared_ptr<torch::jit::Graph> trace_with_constant_parameters(
    Model& model, const std::vector<c10::IValue>& inputs) {
  for (const auto& tensor : model.tensors()) {
    TORCH_CHECK(!tensor.requires_grad(),
                "tracing with constant parameters needs requires_grad off (inference mode)");
  }
  auto forward = [&model](torch::jit::Stack stack) -> torch::jit::Stack {
    return {model.forward(stack)};
  };
  // Not strict: models may return lists or dicts. No name lookup: names are cosmetic.
  auto traced = torch::jit::tracer::trace(
      inputs, forward, [](const torch::autograd::Variable&) { return std::string(); },
      /*strict=*/false, /*force_outplace=*/false);
  auto graph = traced.first->graph;
  torch::jit::EliminateDeadCode(graph);
  return graph;
}

GraphModel::GraphModel(std::shared_ptr<torch::jit::Graph> graph)
    : executor_(std::move(graph), "forward") {}

c10::IValue GraphModel::run(const std::vector<c10::IValue>& inputs) {
  torch::jit::Stack stack(inputs.begin(), inputs.end());
  executor_.run(stack);
  return stack.at(0);
}

}  // namespace tracebench
