#pragma once
// How a run's settings reach the computation: the threads the process
// computes with (LibTorch's intra-op pool, --threads, and OpenBLAS's own pool,
// which LibTorch calls for linear layers and matmuls), and --float32 /
// --bfloat16 / --amp applied to models, inputs and calls.

#include <ATen/core/ivalue.h>

#include <optional>
#include <vector>

#include "backends/autocast_scope.h"
#include "settings/model_run.h"
#include "settings/run_options.h"
#include "settings/run_point.h"
#include "tracebench/backend.h"

namespace tracebench {

/// Sets LibTorch's intra-op threads to the point's, the one place the run
/// writes that global (nothing reads it back to carry the count), and OpenBLAS's
/// to one, unless the user set OPENBLAS_NUM_THREADS. Why one: LibTorch calls
/// BLAS from its own threads, and each OpenBLAS worker spins in sched_yield
/// for a while after every call, taking a core from LibTorch's pool (on 2
/// cores: 3 busy threads, and most of a run's CPU time spent in the kernel).
/// --flush-denormal also sets the CPU's flush-to-zero and denormals-are-zero
/// modes (LibTorch's set_flush_denormal) for the process.
void apply_process_settings(const RunOptions& options, const RunPoint& point);

/// The dtype parameters and float inputs are cast to (float32 for amp: autocast
/// lowers precision per op, not the stored tensors).
c10::ScalarType storage_dtype(Precision precision);

/// Casts every floating-point parameter and buffer of `model` in place.
void cast_model(Model& model, c10::ScalarType dtype);

/// What every backend compiles `run`'s model with: mode, precision,
/// --auto-tolerance, --streams, the point's intra-op threads, auto's skipped
/// candidates, and `example_inputs`.
CompileOptions compile_options_for(const ModelRun& run, std::vector<c10::IValue> example_inputs);

}  // namespace tracebench
