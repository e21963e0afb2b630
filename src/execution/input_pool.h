#pragma once
// The input sets a performance run cycles through (--input-pool, --inputs):
// one reused input lets caches and branch predictors flatter a backend
// (benchmark_app with one reused input read 323 fps where a real loop got 145).

#include <ATen/core/ivalue.h>

#include <vector>

#include "settings/run_options.h"
#include "sources/load_model.h"

namespace tracebench {

/// Inputs for repetition `repetition`: floating-point tensors redrawn from a
/// generator seeded by (seed, repetition); everything else kept, since integer
/// inputs may be indices or lengths.
std::vector<c10::IValue> randomized_inputs(const std::vector<c10::IValue>& inputs, uint64_t seed,
                                           int64_t repetition);

/// The sets, each cast to `dtype`, that the samples take their inputs from:
/// the --inputs file's sets (its first --input-pool, if given); else one set
/// per --shape-set size, the example inputs resized (execution/shape_set.h);
/// else the example inputs and --input-pool - 1 seeded variations of their
/// float tensors. One set, the model's inputs, when none is given. Throws
/// UsageError naming the fix when --input-pool asks for more sets than the
/// file holds.
std::vector<std::vector<c10::IValue>> make_input_pool(const LoadedModel& loaded,
                                                      const RunOptions& options,
                                                      c10::ScalarType dtype);

}  // namespace tracebench
