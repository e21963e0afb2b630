#include "backends/lazy/lazy_frozen.h"

#include <torch/csrc/jit/ir/constants.h>
#include <torch/csrc/jit/passes/dead_code_elimination.h>
#include <torch/csrc/lazy/core/shape.h>
#include <torch/csrc/lazy/ts_backend/ts_backend_impl.h>
#include <torch/csrc/lazy/ts_backend/ts_lowering_context.h>

#include "backends/graph/frozen_graph.h"

namespace tracebench::lazy {

namespace {

using torch::jit::Graph;
using torch::jit::Node;
using torch::jit::Value;

// What LTC's TS backend pushes for device data when it executes a
// computation: the scalar of a scalar constant, else the tensor.
c10::IValue value_of(const BackendDataPtr& data) {
  auto& ts_data = static_cast<torch::lazy::TSData&>(*data);
  if (ts_data.scalar.has_value()) return c10::IValue(*ts_data.scalar);
  return ts_data.data();
}

void substitute_resident_data(Graph& graph, const Capture& capture,
                              const std::vector<BackendDataPtr>& resident) {
  torch::jit::WithInsertPoint at_start(graph.block()->nodes().front());
  for (size_t i = capture.parameters.size(); i-- > 0;) {
    const Source& source = capture.parameters[i];
    if (source.kind == Source::kInput) continue;
    const auto& data = source.kind == Source::kResident ? resident.at(source.index) : source.data;
    graph.inputs()[i]->replaceAllUsesWith(graph.insertConstant(value_of(data)));
    graph.eraseInput(i);
  }
}

std::shared_ptr<Graph> ltc_graph_of(const Capture& capture) {
  auto* computation = dynamic_cast<torch::lazy::TSComputation*>(capture.computation.get());
  TORCH_CHECK(computation, "lazy_trace_once: the LTC backend is not the TorchScript one");
  return computation->graph();
}

std::vector<size_t> input_indices(const Capture& capture) {
  std::vector<size_t> indices;
  for (const auto& source : capture.parameters) {
    if (source.kind == Source::kInput) indices.push_back(source.index);
  }
  return indices;
}

}  // namespace

std::shared_ptr<Graph> freeze_ltc_graph(const std::shared_ptr<Graph>& ltc_graph,
                                        const Capture& capture,
                                        const std::vector<BackendDataPtr>& resident) {
  auto graph = ltc_graph->copy();
  substitute_resident_data(*graph, capture, resident);
  // Drops what LTC lowered but nothing reads (the tuples of multi-output ops).
  torch::jit::EliminateDeadCode(graph);
  optimize_frozen_graph(graph);
  return graph;
}

FrozenComputation::FrozenComputation(const Capture& capture,
                                     const std::vector<BackendDataPtr>& resident)
    : inputs_(input_indices(capture)),
      graph_(freeze_ltc_graph(ltc_graph_of(capture), capture, resident)),
      executor_(graph_, "lazy_trace_once") {}  // the executor optimizes a copy of its own

std::vector<BackendDataPtr> FrozenComputation::run(const std::vector<c10::IValue>& cpu_inputs) {
  torch::jit::Stack stack;
  stack.reserve(inputs_.size());
  for (size_t index : inputs_) stack.push_back(cpu_inputs.at(index));
  executor_.run(stack);
  const auto device = lazy_backend_device();
  std::vector<BackendDataPtr> results;
  results.reserve(stack.size());
  for (const auto& value : stack) {
    const auto& tensor = value.toTensor();
    results.push_back(std::make_shared<torch::lazy::TSData>(
        tensor, torch::lazy::Shape(tensor.scalar_type(), tensor.sizes()), device));
  }
  return results;
}

}  // namespace tracebench::lazy
