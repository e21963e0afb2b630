#pragma once
// Where a run happened, recorded in every JSON report: numbers are only
// comparable between runs whose environments match.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "measure/system_checks.h"

namespace tracebench {

struct Environment {
  std::string cpu_model;  // /proc/cpuinfo "model name"
  int logical_cores = 0;  // std::thread::hardware_concurrency
  int torch_threads = 0;  // torch::get_num_threads() when collected
  /// The CPUs the run may use, read back (sched_getaffinity): what --cpus
  /// bound, or what the run was started with ("0-3,6").
  std::string cpus;
  std::string libtorch_version;             // TORCH_VERSION of the headers built against
  std::string libtorch_config;              // at::show_config(): build flags, BLAS, oneDNN
  std::vector<std::string> blas_libraries;  // BLAS shared objects mapped in this process
  int openblas_threads = 0;  // openblas_get_num_threads(); 0 if OpenBLAS is not loaded
  std::string compiler;      // compiler id and version of this build
  std::string build_type;    // CMAKE_BUILD_TYPE: Release, Debug, ...
  /// The vector and matrix features that decide which kernels run (avx2,
  /// avx512f, avx512_bf16, amx_bf16, ...), those /proc/cpuinfo lists.
  std::vector<std::string> cpu_flags;
  std::string tracebench_version;
  std::string git_revision;  // of the tracebench source tree at build time
  std::string time_utc;      // ISO 8601, when collected
  std::string hostname;
  std::string load_average;  // first three fields of /proc/loadavg
  /// The checks of measure/system_checks.h (governor, turbo, SMT, load,
  /// build type, OpenBLAS threads), made by the run when it starts.
  std::vector<SystemCheck> system_checks;
  /// The compute probe's GFLOP/s per kernel (measure/compute_peak.h), by the
  /// thread count it ran at: each count the run measures with (a --threads
  /// sweep has several). Empty when not probed (accuracy runs).
  std::map<int64_t, std::map<std::string, double>> peak_gflops_by_threads;
};

/// Reads the environment now. Never throws: what cannot be read stays empty.
Environment collect_environment();

/// LibTorch's intra-op thread count as this process found it: what a run
/// computes with when neither --threads nor --cpus names a count. Read at the
/// first call and kept, since the run then sets the count itself
/// (execution/execution_settings.h) and LibTorch's global would only echo it.
int64_t default_intra_op_threads();

/// The flags of kernel-relevant CPU features on the first "flags" line of
/// `cpuinfo_text` (the format of /proc/cpuinfo), in a fixed order.
std::vector<std::string> kernel_cpu_flags(const std::string& cpuinfo_text);

/// kernel_cpu_flags of this machine's /proc/cpuinfo (read once).
const std::vector<std::string>& this_cpu_kernel_flags();

/// Whether `flags` (as kernel_cpu_flags gives them) include a native bfloat16
/// dot product (AVX-512 BF16 or AMX); without one, oneDNN emulates bfloat16
/// with float32 arithmetic and conversions, usually slower than float32.
bool has_native_bf16(const std::vector<std::string>& flags);

/// Whether `flags` include an int8 dot product that accumulates in 32 bits
/// (AVX-512 VNNI, AVX-VNNI or AMX). Without one, x86 multiplies u8 by s8 pairs
/// with a 16-bit saturating add (vpmaddubsw): full-range 8-bit activations
/// overflow it, so int8 kernels must quantize activations to 7 bits.
bool has_native_int8_dot(const std::vector<std::string>& flags);

/// Shared objects in `maps_text` (the format of /proc/self/maps) whose file
/// name contains "blas" (libblas, libopenblas, libcblas, ...), each once, in
/// order of appearance.
std::vector<std::string> blas_libraries_in_maps(const std::string& maps_text);

}  // namespace tracebench
