#pragma once
// CPU autocast to bfloat16 for a scope: --amp in the runner, and the ofi_bf16
// backend while it traces.

#include <c10/core/ScalarType.h>

#include <optional>

#include "tracebench/backend.h"

namespace tracebench {

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
