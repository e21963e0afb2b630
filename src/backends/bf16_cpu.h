#pragma once
// What every bfloat16 backend says on a CPU without native bfloat16.

#include <optional>

#include "measure/environment.h"
#include "tracebench/backend.h"

namespace tracebench {

/// The warning a bfloat16 row carries on a CPU without a native bfloat16 dot
/// product, where oneDNN emulates bfloat16 with float32 arithmetic and
/// conversions; none where the CPU has one.
inline std::optional<BackendWarning> bf16_emulated_warning() {
  if (has_native_bf16(this_cpu_kernel_flags())) return std::nullopt;
  return BackendWarning{"bf16_emulated",
                        "this CPU has no native bfloat16 (no avx512_bf16 or amx_bf16 in "
                        "/proc/cpuinfo): bfloat16 is emulated, so this row says little about a "
                        "CPU that has it"};
}

}  // namespace tracebench
