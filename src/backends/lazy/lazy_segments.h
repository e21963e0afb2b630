#pragma once
// lazy_trace_once on a forward pass that is not one lazy computation: some
// op falls back to eager (LTC has no lowering for it), or syncs the lazy
// tensors mid-way (a data-dependent value). As dynamo does at a graph break,
// the traced graph is cut into lazy segments, each captured and replayed on
// its own, and the ops between them run eagerly on the CPU.

#include <functional>
#include <memory>
#include <vector>

#include "backends/lazy/lazy_common.h"

namespace tracebench::lazy {

/// Where a forward pass breaks into segments: where LTC cannot run an op at
/// all (it throws, e.g. on a nested tensor, and what reads the nested tensor
/// after it) and, for a backend that captures, also at every op LTC runs as
/// an eager fallback or that syncs the lazy tensors mid-way.
enum class BreakAt { kWhereLazyFails, kEveryEagerOp };

/// The top-level nodes of a traced graph that leave the lazy graph, and why.
struct OffTheLazyGraph {
  std::vector<torch::jit::Node*> nodes;  // empty: the whole graph runs on the lazy device
  /// Ops that read a sparse tensor: LTC has no sparse kernels, so sparse
  /// inputs and buffers stay on the CPU, and so do the ops that read them.
  int64_t sparse_ops = 0;
  /// Ops that write a model tensor in place (BreakAt::kEveryEagerOp only):
  /// a capture replays what it recorded from the model tensors' first values,
  /// so these run eagerly on the real tensors instead, moved to the end of
  /// the graph where nothing later depends on them.
  int64_t model_tensor_writes = 0;
};

/// Where `traced` leaves the lazy graph, found by recording the graph on
/// `inputs` one node at a time (a node LTC cannot run is run on the CPU
/// instead). May reorder `traced`'s graph (model tensor writes move last).
OffTheLazyGraph nodes_off_the_lazy_graph(const ParameterizedGraph& traced,
                                         const std::vector<c10::IValue>& inputs, BreakAt break_at);

/// Compiles one segment (a graph over [resident..., inputs...] that returns a
/// tuple) and captures it for the `example` inputs.
using SegmentCompiler = std::function<std::unique_ptr<CompiledModel>(
    ParameterizedGraph segment, const std::vector<c10::IValue>& example)>;

/// `traced` run as lazy segments compiled by `compile_segment`, with the
/// nodes `off_graph` (and the list packing around them) run on the CPU
/// between them. Its counters: graph_breaks (eager steps between segments),
/// lazy_segments, sparse_ops_on_cpu and model_writes_on_cpu (off_graph's
/// counts), and the segments' own counters summed; model tensor writes also
/// warn (model_writes_on_cpu).
std::unique_ptr<CompiledModel> compile_in_segments(ParameterizedGraph traced,
                                                   const OffTheLazyGraph& off_graph,
                                                   const std::vector<c10::IValue>& example_inputs,
                                                   const SegmentCompiler& compile_segment);

}  // namespace tracebench::lazy
