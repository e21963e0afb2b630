#include "measure/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace tracebench {

MannWhitneyResult mann_whitney_u_test(const std::vector<double>& a, const std::vector<double>& b) {
  MannWhitneyResult result;
  if (a.empty() || b.empty()) {
    result.p_value = std::numeric_limits<double>::quiet_NaN();
    return result;
  }
  // (value, from a?) sorted; tied runs share their mean rank.
  std::vector<std::pair<double, bool>> pooled;
  pooled.reserve(a.size() + b.size());
  for (double v : a) pooled.emplace_back(v, true);
  for (double v : b) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });

  const double n = static_cast<double>(pooled.size());
  double rank_sum_a = 0, tie_term = 0;
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;
    while (j + 1 < pooled.size() && pooled[j + 1].first == pooled[i].first) ++j;
    const double rank = (static_cast<double>(i + j) / 2) + 1;
    const double tied = static_cast<double>(j - i + 1);
    tie_term += tied * tied * tied - tied;
    for (size_t k = i; k <= j; ++k) {
      if (pooled[k].second) rank_sum_a += rank;
    }
    i = j + 1;
  }
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  result.u = rank_sum_a - na * (na + 1) / 2;
  const double mean_u = na * nb / 2;
  const double variance = na * nb / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (!(variance > 0)) {  // every value tied (or n == 1)
    result.p_value = 1;
    return result;
  }
  const double distance = std::max(std::fabs(result.u - mean_u) - 0.5, 0.0);
  result.z = std::copysign(distance / std::sqrt(variance), result.u - mean_u);
  result.p_value = std::min(1.0, std::erfc(distance / std::sqrt(variance) / std::sqrt(2.0)));
  return result;
}

}  // namespace tracebench
