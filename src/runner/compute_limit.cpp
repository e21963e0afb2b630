#include "runner/compute_limit.h"

#include "backends/registry.h"
#include "measure/compute_peak.h"

namespace tracebench {

void set_peak_gflops(ResultRow& row, const std::map<std::string, double>& peaks) {
  const Numerics numerics = backend_numerics(row.chosen.empty() ? row.backend : row.chosen);
  if (numerics == Numerics::kInt8) return;
  row.peak_gflops =
      peak_gflops_for(peaks, numerics == Numerics::kBFloat16 ? "bf16" : row.precision);
}

}  // namespace tracebench
