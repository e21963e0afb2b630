#pragma once
// What the lazy backends' tests hold them to against eager: float32 within
// rtol 1e-3 and atol 1e-4 (the LTC computation runs the same ATen kernels, but
// the TorchScript graph executor behind it may fuse or reorder them), compared
// tensor by tensor over the flattened outputs.

#include <ATen/core/ivalue.h>

#include <vector>

#include "backends/lazy/lazy_common.h"

namespace tracebench::testing {

inline constexpr double kLazyRtol = 1e-3;
inline constexpr double kLazyAtol = 1e-4;

/// The tensors of `value`, flattened in order.
inline std::vector<at::Tensor> flat(const c10::IValue& value) {
  std::vector<at::Tensor> tensors;
  lazy::flatten_tensors(value, tensors);
  return tensors;
}

}  // namespace tracebench::testing
