#pragma once
// What the performance run says about a model's outputs: it times them, it
// does not check them (that is accuracy mode's job), but an eager output with
// NaN or Inf in it is worth a warning, since the timings may then measure a
// degenerate path (docs/robustness.md).

#include <torch/torch.h>

#include <string>

namespace tracebench {

/// True if any floating-point tensor anywhere in `value` (tensors, tuples,
/// lists, dicts, nested) holds a NaN or an infinity.
bool has_non_finite(const c10::IValue& value);

/// "warning: eager output holds NaN or Inf" if `output` does, else "".
std::string non_finite_warning(const c10::IValue& output);

}  // namespace tracebench
