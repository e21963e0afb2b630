#pragma once
/// Record a model's forward pass with the JIT tracer, and run the graph. The
/// built-in backends use these, and so can backend plugins. Header-only, so a
/// plugin needs nothing from tracebench but its headers.

#include <torch/csrc/jit/frontend/tracer.h>
#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/passes/dead_code_elimination.h>
#include <torch/csrc/jit/runtime/graph_executor.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tracebench/backend.h"

namespace tracebench {

namespace tracing_detail {

// Records model.forward on the last `input_count` entries of `stack`; tensors
// earlier in the stack become graph inputs because the tracer maps each tensor
// it was given to its input, wherever the model reads it from.
inline std::shared_ptr<torch::jit::Graph> trace_stack(Model& model, const torch::jit::Stack& stack,
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

}  // namespace tracing_detail

/// Traces `model` on `inputs`. Parameters and buffers become graph constants,
/// so none may require grad (the runner turns grad off for inference). The
/// graph's inputs are `inputs`; its one output is forward's result.
inline std::shared_ptr<torch::jit::Graph> trace_model_graph(
    Model& model, const std::vector<c10::IValue>& inputs) {
  for (const auto& tensor : model.tensors()) {
    TORCH_CHECK(!tensor.requires_grad(),
                "tracing with constant parameters needs requires_grad off (inference mode)");
    // The tracer cannot make one a graph constant ("Unsupported value kind: Tensor").
    if (tensor.layout() != c10::kStrided) {
      throw UnsupportedModel(
          "the model holds a sparse tensor (a buffer), which a TorchScript trace cannot hold as "
          "a constant; eager, auto and the lazy backends run it (ts and ofi take a sparse "
          "tensor passed to forward as an input)");
    }
  }
  return tracing_detail::trace_stack(model, inputs, inputs.size());
}

/// Under --shape-set (options.shape_set_inputs), the graph of a model loaded
/// from TorchScript: its own, frozen (Model::frozen_graph, Python's freeze of
/// its trace), which computes the sizes Python's tracer recorded at every
/// call, where a C++ trace of the archive fixes them at the example's and
/// fails, or computes something else, at the set's other shapes
/// (HuggingFace's models, a GPT's positions). nullptr without a set, for
/// other sources, and for a model that branches or loops (its trace follows
/// the example's path, as every other backend's does) or holds a sparse tensor.
inline std::shared_ptr<torch::jit::Graph> shape_set_graph(Model& model,
                                                          const CompileOptions& options) {
  if (options.shape_set_inputs.empty() || model.has_control_flow()) return nullptr;
  for (const auto& tensor : model.tensors()) {
    if (tensor.layout() != c10::kStrided) return nullptr;
  }
  return model.frozen_graph();
}

/// The inference graph a trace-based backend compiles: shape_set_graph where
/// there is one, else the trace of the example inputs.
inline std::shared_ptr<torch::jit::Graph> inference_graph(Model& model,
                                                          const CompileOptions& options) {
  if (auto graph = shape_set_graph(model, options)) return graph;
  return trace_model_graph(model, options.example_inputs);
}

/// Traces `model` on `inputs` with every parameter and buffer as a graph
/// input: the graph's inputs are model.tensors() followed by `inputs`. For
/// training, where autograd must reach the live parameters.
inline std::shared_ptr<torch::jit::Graph> trace_model_graph_with_tensor_inputs(
    Model& model, const std::vector<c10::IValue>& inputs) {
  torch::jit::Stack stack;
  for (const auto& tensor : model.tensors()) stack.emplace_back(tensor);
  stack.insert(stack.end(), inputs.begin(), inputs.end());
  return tracing_detail::trace_stack(model, stack, inputs.size());
}

/// A compiled model that runs a graph through the JIT's graph executor
/// (profiling, then optimization). With `model`, the graph came from
/// trace_model_graph_with_tensor_inputs and each call passes the model's
/// current tensors ahead of the inputs.
class GraphExecutorModel : public CompiledModel {
 public:
  explicit GraphExecutorModel(std::shared_ptr<torch::jit::Graph> graph, Model* model = nullptr)
      : executor_(graph, "forward"), model_(model) {
    // A graph that reads the model's tensors as inputs is no model on its own.
    if (!model_) saveable_.graph = std::move(graph);
  }
  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    torch::jit::Stack stack;
    if (model_) {
      for (const auto& tensor : model_->tensors()) stack.emplace_back(tensor);
    }
    stack.insert(stack.end(), inputs.begin(), inputs.end());
    executor_.run(stack);
    return stack.at(0);
  }
  SaveableGraph saveable_graph() const override { return saveable_; }
  std::map<std::string, double> counters() const override { return counters_; }
  std::vector<BackendWarning> warnings() const override { return warnings_; }
  /// A figure the row reports about how the graph was compiled (CompiledModel::counters).
  void set_counter(const std::string& name, double value) { counters_[name] = value; }
  /// A note the row carries about how the graph was compiled (CompiledModel::warnings).
  void add_warning(BackendWarning warning) { warnings_.push_back(std::move(warning)); }
  /// For a graph that holds what TorchScript cannot serialize: what to save
  /// instead (see SaveableGraph).
  void set_saveable_graph(SaveableGraph saveable) { saveable_ = std::move(saveable); }

 private:
  torch::jit::GraphExecutor executor_;
  Model* model_;
  SaveableGraph saveable_;
  std::map<std::string, double> counters_;
  std::vector<BackendWarning> warnings_;
};

}  // namespace tracebench
