#pragma once
// What every int8 backend does and says on a CPU without VNNI.

#include "measure/environment.h"
#include "tracebench/backend.h"

namespace tracebench {

/// Whether int8 activations must keep to 7 bits here: without VNNI an int8
/// product sums in 16 bits (vpmaddubsw), where 8-bit activations saturate.
inline bool int8_needs_reduced_range() { return !has_native_int8_dot(this_cpu_kernel_flags()); }

/// The warning an int8 row carries where int8_needs_reduced_range().
inline BackendWarning int8_reduced_range_warning() {
  return {"int8_reduced_range",
          "this CPU has no VNNI (no avx512_vnni, avx_vnni or amx_int8 in /proc/cpuinfo): its int8 "
          "products sum in 16 bits, so activations are quantized to 7 bits (reduce_range): less "
          "accurate and slower than on a CPU that has it"};
}

}  // namespace tracebench
