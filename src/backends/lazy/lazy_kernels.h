#pragma once
// Kernels this project registers for the Lazy dispatch key, for ATen ops that
// LTC 1.13's TorchScript backend has no lowering for:
// - where its eager fallback is wrong: it returns a Tensor[] result as CPU
//   tensors (the next lazy op then aborts the process: "Input tensor is not
//   a lazy tensor"), and leaves the Tensor?[] indices of aten::index on the
//   lazy device ("indices should be on the same device");
// - where an exact form from lowered ops keeps a common model in one lazy
//   graph (roll, floor_divide, fill with a tensor value, the fused
//   multi-head attention of nn.MultiheadAttention's inference fast path).
// They work inside composite ops too (aten::lstm and aten::gru split their
// gates with unsafe_chunk, which reaches unsafe_split).

namespace tracebench::lazy {

/// Registers the kernels once per process; call before recording lazy IR.
void register_lazy_kernels();

}  // namespace tracebench::lazy
