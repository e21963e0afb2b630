#pragma once
// Mann-Whitney U (Wilcoxon rank-sum) test: does one sample tend to be larger
// than the other? Unlike the t-test it assumes no normality, and one slow
// outlier moves it no more than any other sample that ranks last.

#include <vector>

namespace tracebench {

struct MannWhitneyResult {
  double u = 0;        // U of `a`: pairs (x in a, y in b) with x > y, ties count 1/2
  double z = 0;        // standardized, continuity-corrected
  double p_value = 1;  // two-sided
};

/// Two-sided test by the normal approximation with tie correction and a
/// continuity correction of 1/2 (scipy's mannwhitneyu, method="asymptotic").
/// The approximation is good from about 8 values per side; below that p is
/// still returned (slightly inaccurate). p is NaN if either side is empty, 1
/// when every value is tied.
MannWhitneyResult mann_whitney_u_test(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace tracebench
