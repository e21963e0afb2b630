#pragma once
// Process-wide settings a run applies before it loads a model: the threads it
// computes with (LibTorch's intra-op pool, --threads, and OpenBLAS's own pool,
// which LibTorch calls for linear layers and matmuls).

#include "runner/run_options.h"

namespace tracebench {

/// Sets LibTorch's intra-op threads to --threads (when given) and OpenBLAS's
/// to one, unless the user set OPENBLAS_NUM_THREADS. Why one: LibTorch calls
/// BLAS from its own threads, and each OpenBLAS worker spins in sched_yield
/// for a while after every call, taking a core from LibTorch's pool (on 2
/// cores: 3 busy threads, and most of a run's CPU time spent in the kernel).
void apply_process_settings(const RunOptions& options);

}  // namespace tracebench
