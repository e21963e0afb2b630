#pragma once
// --float32 / --bfloat16 / --amp applied to models, inputs and calls.

#include <ATen/core/ivalue.h>

#include <optional>
#include <vector>

#include "tracebench/backend.h"

namespace tracebench {

/// The dtype parameters and float inputs are cast to (float32 for amp: autocast
/// lowers precision per op, not the stored tensors).
c10::ScalarType storage_dtype(Precision precision);

/// Casts every floating-point parameter and buffer of `model` in place.
void cast_model(Model& model, c10::ScalarType dtype);

/// Float tensors cast to `dtype`; other inputs unchanged.
std::vector<c10::IValue> cast_inputs(const std::vector<c10::IValue>& inputs, c10::ScalarType dtype);

/// Turns CPU autocast to bfloat16 on for its lifetime when precision is amp.
class AutocastScope {
 public:
  explicit AutocastScope(Precision precision);
  ~AutocastScope();
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  std::optional<bool> previous_enabled_;
  c10::ScalarType previous_dtype_ = c10::ScalarType::BFloat16;
};

}  // namespace tracebench
