#pragma once
// Statistics over timing samples, as pure functions. Edge cases are stated per
// function; none of them throws on empty input unless it says so.

#include <cstddef>
#include <vector>

namespace tracebench {

/// Middle value (mean of the two middle values for even sizes). NaN if empty.
double median(std::vector<double> values);
/// The same without a copy, for hot loops (the bootstrap): reorders `values`.
double median_in_place(std::vector<double>& values);

/// The fewest values that resolve the `percent` percentile: 1 / (1 - p/100),
/// rounded up (p50: 2, p90: 10, p99: 100, p99.9: 1000). Below it, the
/// nearest rank is the maximum, whatever the percentile.
size_t samples_for_percentile(double percent);

/// Nearest-rank percentile: the smallest value with at least `percent`% of
/// the values at or below it, sorted[ceil(p/100 * n) - 1]. NaN when there are
/// fewer values than samples_for_percentile(percent).
double nearest_rank_percentile(std::vector<double> values, double percent);

/// Arithmetic mean. NaN if empty.
double mean(const std::vector<double>& values);

/// Unbiased sample variance (divides by n - 1). NaN if fewer than 2 values.
double sample_variance(const std::vector<double>& values);

/// Geometric mean of positive values; non-positive values are skipped
/// (failed rows carry speedup 0). NaN if nothing is left.
double geometric_mean(const std::vector<double>& values);

struct WelchResult {
  double t = 0;                   // statistic for mean(a) - mean(b)
  double degrees_of_freedom = 0;  // Welch-Satterthwaite
  double p_value = 1;             // two-sided
};

/// Welch's unequal-variance t-test of "mean(a) == mean(b)". Needs at least 2
/// values on each side, else p is NaN. When both variances are zero, p is 1 if
/// the means are equal and 0 otherwise.
WelchResult welch_t_test(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace tracebench
