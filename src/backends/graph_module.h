#pragma once
// A TorchScript graph as a module: what --save-optimized writes, and what the
// aot_inductor backend hands to PyTorch 2.x's exporter.

#include <torch/csrc/jit/api/module.h>

#include <memory>

namespace tracebench {

/// The module whose forward runs `graph` on the graph's inputs. Constants of
/// a class type (XNNPACK's and the quantized engine's packed weights) become
/// attributes: TorchScript pickles those, but cannot print them as constants.
torch::jit::Module module_of_graph(const std::shared_ptr<torch::jit::Graph>& graph);

}  // namespace tracebench
