#include "backends/tracing.h"

#include <torch/csrc/jit/frontend/tracer.h>
#include <torch/csrc/jit/passes/dead_code_elimination.h>

#include "tracebench/error.h"

namespace tracebench {

namespace {

// Records model.forward on the last `input_count` entries of `stack`; tensors
// earlier in the stack become graph inputs because the tracer maps each
// tensor it was given to its input, wherever the model reads it from.
std::shared_ptr<torch::jit::Graph> trace(Model& model, const torch::jit::Stack& stack,
                                         size_t input_count) {
  auto forward = [&model, input_count](torch::jit::Stack traced) -> torch::jit::Stack {
    return {model.forward(std::vector<c10::IValue>(traced.end() - input_count, traced.end()))};
  };
  // Not strict: models may return lists or dicts. No name lookup: names are cosmetic.
  auto traced = torch::jit::tracer::trace(
      stack, forward, [](const torch::autograd::Variable&) { return std::string(); },
      /*strict=*/false, /*force_outplace=*/false);
  auto graph = traced.first->graph;
  torch::jit::EliminateDeadCode(graph);
  return graph;
}

}  // namespace

std::shared_ptr<torch::jit::Graph> trace_with_constant_parameters(
    Model& model, const std::vector<c10::IValue>& inputs) {
  for (const auto& tensor : model.tensors()) {
    TORCH_CHECK(!tensor.requires_grad(),
                "tracing with constant parameters needs requires_grad off (inference mode)");
  }
  return trace(model, inputs, inputs.size());
}

std::shared_ptr<torch::jit::Graph> trace_with_tensor_inputs(
    Model& model, const std::vector<c10::IValue>& inputs) {
  torch::jit::Stack stack;
  for (const auto& tensor : model.tensors()) stack.emplace_back(tensor);
  stack.insert(stack.end(), inputs.begin(), inputs.end());
  return trace(model, stack, inputs.size());
}

GraphModel::GraphModel(std::shared_ptr<torch::jit::Graph> graph, Model* model)
    : executor_(std::move(graph), "forward"), model_(model) {}

c10::IValue GraphModel::run(const std::vector<c10::IValue>& inputs) {
  torch::jit::Stack stack;
  if (model_) {
    for (const auto& tensor : model_->tensors()) stack.emplace_back(tensor);
  }
  stack.insert(stack.end(), inputs.begin(), inputs.end());
  executor_.run(stack);
  return stack.at(0);
}

}  // namespace tracebench
