#pragma once
// Performance mode for one model: every requested backend against an eager
// baseline, timed in interleaved, shuffled turns.

#include <vector>

#include "report/result_row.h"
#include "runner/run_options.h"
#include "sources/load_model.h"

namespace tracebench {

/// One row per backend in options.backends (in that order). Failures become
/// rows with a status; this function only throws for bugs.
std::vector<ResultRow> measure_performance(LoadedModel& loaded, const RunOptions& options);

/// Inputs for repetition `repetition`: floating-point tensors redrawn from a
/// generator seeded by (seed, repetition); everything else kept, since integer
/// inputs may be indices or lengths.
std::vector<c10::IValue> randomized_inputs(const std::vector<c10::IValue>& inputs, uint64_t seed,
                                           int64_t repetition);

}  // namespace tracebench
