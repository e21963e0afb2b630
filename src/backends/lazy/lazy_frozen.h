#pragma once
// lazy_trace_once's inference computation, frozen.
//
// The computation LTC's TorchScript backend compiled for the traced forward
// pass is a TorchScript graph whose parameters are the device data it reads:
// the model's tensors, LTC's scalar constants and the call inputs. For
// inference the resident data never changes, so it is substituted into the
// graph as constants and only the call inputs stay parameters. Then the same
// passes as the ofi backend run (frozen_graph.h: LTC's functional ops
// rewritten to the ones a traced module has, conv-bn folding, oneDNN layouts), and a graph executor
// of its own runs the result: LTC's executor is not involved in a replay any more.

#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/runtime/graph_executor.h>

#include <memory>
#include <vector>

#include "backends/lazy/lazy_capture.h"

namespace tracebench::lazy {

/// `ltc_graph` (a captured computation's graph, parameters in `capture`'s
/// order) with every non-input parameter replaced by its data in `resident`
/// or its constant, and LTC's functional ops rewritten for the frozen-graph
/// passes. Inputs of the result: the capture's kInput parameters, in order.
std::shared_ptr<torch::jit::Graph> freeze_ltc_graph(
    const std::shared_ptr<torch::jit::Graph>& ltc_graph, const Capture& capture,
    const std::vector<BackendDataPtr>& resident);

/// A captured inference computation, frozen and optimized, run by its own
/// graph executor.
class FrozenComputation {
 public:
  FrozenComputation(const Capture& capture, const std::vector<BackendDataPtr>& resident);

  /// Runs on the call's CPU inputs; returns the computation's results (as
  /// lazy::execute does).
  std::vector<BackendDataPtr> run(const std::vector<c10::IValue>& cpu_inputs);

  /// The optimized graph (before the executor's own profiling passes).
  const torch::jit::Graph& graph() const { return *graph_; }

 private:
  std::vector<size_t> inputs_;  // call input index of each graph input
  std::shared_ptr<torch::jit::Graph> graph_;
  torch::jit::GraphExecutor executor_;
};

}  // namespace tracebench::lazy
