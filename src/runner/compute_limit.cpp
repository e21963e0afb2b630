#include "runner/compute_limit.h"

#include "backends/registry.h"
#include "measure/compute_peak.h"

namespace tracebench {

namespace {

Numerics backend_numerics(const std::string& name) {
  try {
    return make_backend(name)->numerics();
  } catch (const std::exception&) {
    return Numerics::kExact;  // a name the registry lacks (a plugin not loaded here)
  }
}

}  // namespace

void set_peak_gflops(ResultRow& row, const std::map<std::string, double>& peaks) {
  const Numerics numerics = backend_numerics(row.chosen.empty() ? row.backend : row.chosen);
  if (numerics == Numerics::kInt8) return;
  row.peak_gflops =
      peak_gflops_for(peaks, numerics == Numerics::kBFloat16 ? "bf16" : row.precision);
}

}  // namespace tracebench
