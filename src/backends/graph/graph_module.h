#pragma once
// A TorchScript graph as a module: what --save-optimized writes, and what the
// aot_inductor backend hands to PyTorch 2.x's exporter.

#include <torch/csrc/jit/api/module.h>

#include <memory>

namespace tracebench {

/// Where the graph's tensor constants (a trace's weights) go in the module.
enum class TensorConstants {
  kInGraph,  // stay constants of forward's graph, as the trace made them
  /// become buffers (`constant_N`) that forward reads: torch.export's
  /// TorchScript converter lifts buffers as a module's own, where it
  /// mishandles some graph constants (a 0-dim float64 scale).
  kBuffers,
};

/// The module whose forward runs `graph` on the graph's inputs. Constants of
/// a class type (XNNPACK's and the quantized engine's packed weights) become
/// attributes: TorchScript pickles those, but cannot print them as constants.
torch::jit::Module module_of_graph(const std::shared_ptr<torch::jit::Graph>& graph,
                                   TensorConstants tensors = TensorConstants::kInGraph);

}  // namespace tracebench
