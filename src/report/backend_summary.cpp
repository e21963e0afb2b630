#include "report/backend_summary.h"

#include <algorithm>

#include "measure/statistics.h"

namespace tracebench {

BackendSummary summarize_backend(const std::vector<ResultRow>& rows, const std::string& backend) {
  std::vector<double> speedups, clamped;
  int all = 0;
  for (const auto& row : rows) {
    if (row.backend != backend) continue;
    ++all;
    if (!row.passed()) continue;
    speedups.push_back(row.speedup);
    clamped.push_back(std::max(row.speedup, 1.0));
  }
  return {geometric_mean(speedups), geometric_mean(clamped), static_cast<int>(speedups.size()),
          all};
}

}  // namespace tracebench
