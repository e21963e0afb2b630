#pragma once
// How fast this machine can compute at all, at the run's thread count: the
// yardstick of a row's peak_share (docs/statistics.md). A short probe times a
// few dense kernels, the kinds models spend their time in, each on LibTorch's
// own path (oneDNN or OpenBLAS, as LibTorch picks them, and XNNPACK where this
// LibTorch has it), and keeps each one's best run.

#include <map>
#include <string>

namespace tracebench {

/// GFLOP/s per probe kernel, named <kernel>_<precision>: conv2d_fp32,
/// mm_fp32, xnnpack_conv2d_fp32, xnnpack_linear_fp32, conv2d_bf16, mm_bf16,
/// conv2d_int8, mm_int8 (integer operations per second). A kernel this
/// LibTorch cannot run is absent. Takes about a second.
std::map<std::string, double> measure_compute_peaks();

/// The best of `peaks` that a row whose arithmetic ran at `precision` (fp32,
/// bf16, amp, int8: its ran_precision) can use: the float32 kernels, plus the
/// bfloat16 ones for bf16 and amp, the int8 ones for int8. NaN if none.
double peak_gflops_for(const std::map<std::string, double>& peaks, const std::string& precision);

}  // namespace tracebench
