#pragma once
// Python's tracer records arithmetic on a tensor's sizes (`seq_length +
// past_length`, `h * w`) as tensor ops: a size becomes a 0-dim tensor
// (prim::NumToTensor), is multiplied or added as one, and turns back into an
// int (aten::Int). Run as it is, such a graph computes shapes with CPU tensors
// (which the lazy backends' replay cannot take: they are not lazy tensors)
// and torch.export reads each aten::Int as a value known only at run time
// (an unbacked size, which fixes or fails the shape). This pass does that
// arithmetic on ints, as the model's Python did.

#include <torch/csrc/jit/ir/ir.h>

namespace tracebench {

/// Replaces each aten::Int of mul, add, sub or floor_divide over sizes
/// (prim::NumToTensor of an int) and integer constants with the same
/// arithmetic on ints, and removes what is left unused. Any other aten::Int
/// stays. Returns how many it replaced.
int fold_size_arithmetic(torch::jit::Graph& graph);

}  // namespace tracebench
