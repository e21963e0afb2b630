#pragma once
// Rewrites of a traced graph that make it run on LTC 1.13's TorchScript
// backend as one lazy computation: ops it cannot lower, or lowers wrongly,
// replaced by equivalent ops it can (docs/backends.md, "what the lazy
// backends rewrite").

#include <torch/csrc/jit/ir/ir.h>

#include "tracebench/backend.h"

namespace tracebench::lazy {

/// Every rewrite below, for a graph that will run in `mode`. (Ops whose
/// eager fallback is wrong get kernels instead: lazy_kernels.h.)
void use_lazy_lowerable_ops(torch::jit::Graph& graph, Mode mode);

/// LTC 1.13 cannot differentiate aten::convolution without a bias; gives
/// each one a zero bias (training graphs only).
void give_convolutions_a_zero_bias(torch::jit::Graph& graph);

}  // namespace tracebench::lazy
