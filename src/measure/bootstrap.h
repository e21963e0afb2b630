#pragma once
// Confidence interval of a speedup (a ratio of medians) by the bootstrap.
//
// Method: two-sample percentile bootstrap. Each resample draws n_a values from
// `numerator` and n_b values from `denominator` with replacement (independent
// draws: interleaving makes the two series comparable, it does not pair them),
// and computes median(resampled numerator) / median(resampled denominator).
// The interval is the (1-c)/2 and (1+c)/2 quantiles of those ratios (linear
// interpolation between order statistics, numpy's default). Indices come from
// mt19937_64 seeded with `seed`, so the same inputs always give the same
// interval on every platform. See docs/statistics.md for its measured coverage.

#include <cstdint>
#include <limits>
#include <vector>

namespace tracebench {

/// Resamples used unless a caller asks otherwise: the percentile endpoints of
/// a 95% interval move by well under 1% of the width between seeds at 2000.
inline constexpr int kDefaultBootstrapResamples = 2000;

struct Interval {
  double low = std::numeric_limits<double>::quiet_NaN();
  double high = std::numeric_limits<double>::quiet_NaN();
  bool valid() const { return low == low && high == high; }  // neither is NaN
  double half_width() const { return (high - low) / 2; }
  bool contains(double value) const { return low <= value && value <= high; }
};

/// Linear-interpolation quantile (numpy "linear", R type 7) of `values` at
/// q in [0, 1]. NaN if empty or q is outside [0, 1].
double quantile(std::vector<double> values, double q);

/// The `confidence` (e.g. 0.95) percentile-bootstrap interval of
/// median(numerator) / median(denominator). Invalid (NaN) if either side is
/// empty, `resamples` < 1 or `confidence` is not in (0, 1). With one value on
/// each side the interval is that single ratio.
Interval bootstrap_median_ratio_ci(const std::vector<double>& numerator,
                                   const std::vector<double>& denominator,
                                   int resamples = kDefaultBootstrapResamples,
                                   double confidence = 0.95, uint64_t seed = 0);

/// Adaptive stopping rule: true once the interval is valid and its half-width
/// is at most `target` (e.g. 0.01) times `estimate`.
bool precise_enough(const Interval& interval, double estimate, double target);

}  // namespace tracebench
