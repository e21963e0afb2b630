#include "measure/statistics.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tracebench {
namespace {

TEST(Statistics, Median) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({7}), 7);
  EXPECT_TRUE(std::isnan(median({})));
}

TEST(Statistics, MeanAndSampleVariance) {
  EXPECT_DOUBLE_EQ(mean({1, 2, 3, 4, 5}), 3);
  EXPECT_DOUBLE_EQ(sample_variance({1, 2, 3, 4, 5}), 2.5);  // 10 / (5 - 1)
  EXPECT_TRUE(std::isnan(sample_variance({1})));
  EXPECT_TRUE(std::isnan(mean({})));
}

TEST(Statistics, GeometricMeanSkipsFailedRows) {
  EXPECT_NEAR(geometric_mean({2, 8}), 4, 1e-12);
  EXPECT_NEAR(geometric_mean({2, 0, 8}), 4, 1e-12);  // 0 marks a failed row
  EXPECT_TRUE(std::isnan(geometric_mean({0})));
}

// Reference values computed by hand with mpmath (30 digits): t and the
// Welch-Satterthwaite df from the textbook formulas, p = I_{df/(df+t^2)}(df/2, 1/2).
TEST(Statistics, WelchTestMatchesHandComputedValues) {
  auto r = welch_t_test({1, 2, 3, 4, 5}, {3, 4, 5, 6, 7, 8});
  EXPECT_NEAR(r.t, -2.40192230707631, 1e-12);
  EXPECT_NEAR(r.degrees_of_freedom, 8.98936170212766, 1e-12);
  EXPECT_NEAR(r.p_value, 0.0398030820241363, 1e-12);

  r = welch_t_test({10.1, 9.8, 10.3, 10.0, 9.9, 10.2, 10.1}, {10.4, 10.6, 10.2, 10.5, 10.7});
  EXPECT_NEAR(r.t, -3.92314024660637, 1e-10);
  EXPECT_NEAR(r.degrees_of_freedom, 8.10400239929987, 1e-10);
  EXPECT_NEAR(r.p_value, 0.00428869118659452, 1e-12);
}

TEST(Statistics, WelchTestEdgeCases) {
  EXPECT_NEAR(welch_t_test({1, 2, 3}, {1, 2, 3}).p_value, 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(welch_t_test({2, 2}, {2, 2}).p_value, 1.0);  // no variance, same mean
  EXPECT_DOUBLE_EQ(welch_t_test({2, 2}, {3, 3}).p_value, 0.0);  // no variance, different mean
  EXPECT_TRUE(std::isnan(welch_t_test({1}, {1, 2}).p_value));
  // Symmetric: swapping the samples flips t, keeps p.
  auto forward = welch_t_test({1, 2, 4}, {2, 5, 9, 1});
  auto backward = welch_t_test({2, 5, 9, 1}, {1, 2, 4});
  EXPECT_DOUBLE_EQ(forward.t, -backward.t);
  EXPECT_DOUBLE_EQ(forward.p_value, backward.p_value);
}

}  // namespace
}  // namespace tracebench
