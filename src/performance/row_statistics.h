#pragma once
// The statistics a measured row carries beyond its speedup: the bootstrap CI,
// the Mann-Whitney p-value and the noise warnings.

#include <cstdint>

#include "report/result_row.h"

namespace tracebench {

/// Fills ci_low/ci_high and mann_whitney_p of a row whose samples_s and
/// eager_samples_s are set, and adds the noise warnings to the row's own.
/// `seed` seeds the bootstrap.
void add_row_statistics(ResultRow& row, uint64_t seed);

}  // namespace tracebench
