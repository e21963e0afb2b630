#pragma once
// The statistics a measured row carries beyond its speedup: the bootstrap CI,
// the Mann-Whitney p-value and the noise warnings.

#include <cstdint>

#include "report/result_row.h"

namespace tracebench {

/// Fills ci_low/ci_high, mann_whitney_p and the warnings of a row whose
/// samples_s and eager_samples_s are set. `seed` seeds the bootstrap.
void add_row_statistics(ResultRow& row, uint64_t seed);

}  // namespace tracebench
