#pragma once
// The statistics a measured row carries beyond its speedup: the bootstrap CI,
// the Mann-Whitney p-value and the noise warnings.

#include <cstdint>

#include "report/result_row.h"

namespace tracebench {

/// How the eager baseline's own noise warnings are marked, whatever the
/// compared backend is called (it is "eager" too in an A/A run). The compared
/// backend's warnings keep the bare code and start with "<backend>: ".
inline constexpr const char* kBaselineWarningCodePrefix = "eager_";
inline constexpr const char* kBaselineWarningMessagePrefix = "eager baseline: ";

/// Fills ci_low/ci_high, mann_whitney_p and the warnings of a row whose
/// samples_s and eager_samples_s are set. `seed` seeds the bootstrap.
void add_row_statistics(ResultRow& row, uint64_t seed);

}  // namespace tracebench
