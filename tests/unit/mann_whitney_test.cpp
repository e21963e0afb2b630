#include "measure/mann_whitney.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tracebench {
namespace {

// scipy.stats.mannwhitneyu(males, females, method="asymptotic") from scipy's
// documentation: statistic=17.0, pvalue=0.11134688653314041.
TEST(MannWhitney, MatchesScipyDocumentationExample) {
  const auto r = mann_whitney_u_test({19, 22, 16, 29, 24}, {20, 11, 17, 12});
  EXPECT_DOUBLE_EQ(r.u, 17);
  EXPECT_NEAR(r.p_value, 0.11134688653314041, 1e-12);
  EXPECT_GT(r.z, 0);
}

// With ties: ranks averaged, variance tie-corrected. Reference computed by an
// independent Python implementation of the same textbook formula (U = 8.5,
// sigma^2 = n1 n2 / 12 ((n + 1) - sum(t^3 - t) / (n (n - 1))), continuity 0.5).
TEST(MannWhitney, TieCorrection) {
  const auto r = mann_whitney_u_test({1, 2, 2, 3, 3, 3, 4}, {2, 3, 4, 4, 5, 5, 6, 7});
  EXPECT_DOUBLE_EQ(r.u, 8.5);
  EXPECT_NEAR(r.p_value, 0.02527973688589393, 1e-12);
}

TEST(MannWhitney, EdgeCases) {
  EXPECT_DOUBLE_EQ(mann_whitney_u_test({1, 1, 1}, {1, 1}).p_value, 1.0);  // all tied
  EXPECT_DOUBLE_EQ(mann_whitney_u_test({1.1, 1.2, 1.3}, {1.1, 1.2, 1.3}).p_value, 1.0);
  EXPECT_TRUE(std::isnan(mann_whitney_u_test({}, {1, 2}).p_value));
  // Complete separation with 10 per side: p well below 0.001.
  std::vector<double> low, high;
  for (int i = 0; i < 10; ++i) {
    low.push_back(i);
    high.push_back(100 + i);
  }
  EXPECT_LT(mann_whitney_u_test(low, high).p_value, 1e-3);
  EXPECT_DOUBLE_EQ(mann_whitney_u_test(low, high).u, 0);
  // Symmetric in p.
  EXPECT_DOUBLE_EQ(mann_whitney_u_test({1, 5, 3}, {2, 4, 8, 9}).p_value,
                   mann_whitney_u_test({2, 4, 8, 9}, {1, 5, 3}).p_value);
}

}  // namespace
}  // namespace tracebench
