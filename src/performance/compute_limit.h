#pragma once
// Which of the compute probe's peaks a row is measured against (its
// peak_share, docs/statistics.md).

#include <map>
#include <string>

#include "report/result_row.h"

namespace tracebench {

/// Sets row.peak_gflops from the probe's `peaks` (measure/compute_peak.h) for
/// the arithmetic the row ran (its ran_precision: auto's pick's, what OpenVINO
/// executed): the bfloat16 kernels count for bf16 and amp rows, the int8 ones
/// for int8 rows, whose FLOP count stands for the integer operations that
/// replace the float work. A row that did not run has none.
void set_peak_gflops(ResultRow& row, const std::map<std::string, double>& peaks);

}  // namespace tracebench
