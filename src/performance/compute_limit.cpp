#include "performance/compute_limit.h"

#include "measure/compute_peak.h"

namespace tracebench {

void set_peak_gflops(ResultRow& row, const std::map<std::string, double>& peaks) {
  if (row.ran_precision.empty()) return;
  row.peak_gflops = peak_gflops_for(peaks, row.ran_precision);
}

}  // namespace tracebench
