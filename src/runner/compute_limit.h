#pragma once
// Which of the compute probe's peaks a row is measured against (its
// peak_share, docs/statistics.md).

#include <map>
#include <string>

#include "report/result_row.h"

namespace tracebench {

/// Sets row.peak_gflops from the probe's `peaks` (measure/compute_peak.h) for
/// the arithmetic the row's backend does (auto: the backend it ran): the
/// bfloat16 kernels count for bf16 and amp rows and bfloat16 backends. An int8
/// backend gets none: the FLOP count is of float work it replaces with integer
/// work, which no float kernel bounds.
void set_peak_gflops(ResultRow& row, const std::map<std::string, double>& peaks);

}  // namespace tracebench
