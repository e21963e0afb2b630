#pragma once
// Floating-point operations of one forward pass, counted on a traced graph.
//
// Method: the model is traced with the JIT tracer (parameters as constants),
// which records every op with the complete shapes of its inputs and outputs.
// Only convolutions (aten::_convolution, aten::conv2d), linear layers
// (aten::linear, aten::addmm) and matrix products (aten::matmul, aten::mm,
// aten::bmm) are counted, as 2 x multiply-accumulates:
//   convolution: numel(output) x (C_in / groups) x prod(kernel)
//   linear / addmm / matmul / mm / bmm: numel(output) x K (the reduced size)
// Bias additions, normalisation, activations, pooling and softmax are left
// out: they are a few percent of these models' work, and this is what
// fvcore/ptflops-style "FLOPs = 2 x MACs" tables report.

#include <cstdint>
#include <vector>

#include "tracebench/model.h"

namespace tracebench {

struct FlopCount {
  int64_t flops = 0;     // 2 x MACs of the ops below
  int64_t conv_ops = 0;  // how many nodes of each kind were counted
  int64_t linear_ops = 0;
  int64_t matmul_ops = 0;
};

/// Traces `model` on `inputs` and counts. The model's tensors must not require
/// grad (call requires_grad_(false) on them first).
FlopCount count_flops(Model& model, const std::vector<c10::IValue>& inputs);

}  // namespace tracebench
