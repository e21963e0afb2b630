#pragma once
// The graph passes behind the ofi backend, in two steps so that the backends
// built on it (int8_dynamic, xnnpack) can change the frozen graph before
// oneDNN takes it, and exposed so that tests can check what they do.

#include <torch/csrc/jit/ir/ir.h>

#include <functional>
#include <memory>

#include "tracebench/backend.h"

namespace tracebench {

/// torch.jit.freeze's passes on a graph whose parameters are already constants:
/// dropout removal, conv/linear-bn and conv-add/mul folding. First it
/// rewrites the functional ops that the C++ frontend and LTC record
/// (_convolution/convolution, native_batch_norm, addmm/mm/matmul of a
/// transposed constant weight, max_pool2d_with_indices) into the ops Python's
/// tracer records (conv2d, batch_norm, linear, max_pool2d), so that the result
/// is the graph Python's optimize_for_inference(freeze(trace(m))) makes
/// (tests/zoo/ofi_graph_test.cpp).
void freeze_graph(std::shared_ptr<torch::jit::Graph>& graph);

/// A change to the graph between ofi's oneDNN step and its last one, which
/// turns every aten::linear left (those outside a oneDNN group) into a matmul
/// of a pre-transposed weight.
using LinearRewrite = std::function<void(torch::jit::Graph&)>;

/// What torch.jit.optimize_for_inference adds on CPU to a frozen graph:
/// conv-add-relu fusion, oneDNN (MKLDNN) layouts from each convolution on,
/// linear as matmul of a pre-transposed weight; `before_linear_transpose`
/// runs before that last step.
void optimize_for_inference_passes(std::shared_ptr<torch::jit::Graph>& graph,
                                   const LinearRewrite& before_linear_transpose = nullptr);

/// optimize_for_inference_passes, returning what --save-optimized writes: the
/// result, or, where the passes left oneDNN-layout tensors (which TorchScript
/// saves but cannot load), the graph from before them, with
/// torch.jit.optimize_for_inference as the loader's step (which makes ofi's
/// graph of it).
SaveableGraph optimize_for_inference_keeping_saveable(
    std::shared_ptr<torch::jit::Graph>& graph,
    const LinearRewrite& before_linear_transpose = nullptr);

/// Calls `rewrite` on each top-level aten::linear whose weight is a constant
/// 2-d float32 tensor in the ordinary (strided) layout, with that weight;
/// `rewrite` returns whether it replaced the node. Returns how many it did.
int rewrite_constant_linears(
    torch::jit::Graph& graph,
    const std::function<bool(torch::jit::Node* linear, const at::Tensor& weight)>& rewrite);

/// The counters in which onednn_linear and int8_dynamic report how many linear
/// layers rewrite_constant_linears replaced: at zero their graph is ofi's, which
/// auto reads so as not to time one graph under two names.
inline constexpr char kOnednnLinearsCounter[] = "onednn_linears";
inline constexpr char kInt8LinearsCounter[] = "int8_linears";

/// freeze_graph, then optimize_for_inference_passes: Python's
/// optimize_for_inference(freeze(trace(m))).
void optimize_frozen_graph(std::shared_ptr<torch::jit::Graph>& graph);

}  // namespace tracebench
