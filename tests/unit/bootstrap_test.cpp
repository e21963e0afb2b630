#include "measure/bootstrap.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace tracebench {
namespace {

TEST(Quantile, MatchesNumpyLinear) {
  // numpy.quantile([1, 2, 3, 4], q) with the default "linear" method.
  EXPECT_DOUBLE_EQ(quantile({4, 2, 3, 1}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.975), 3.925);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0), 1);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 1), 4);
  EXPECT_DOUBLE_EQ(quantile({7}, 0.3), 7);
  EXPECT_TRUE(std::isnan(quantile({}, 0.5)));
  EXPECT_TRUE(std::isnan(quantile({1, 2}, 1.5)));
}

TEST(Bootstrap, ConstantSamplesGiveThePointRatio) {
  const auto ci = bootstrap_median_ratio_ci({3, 3, 3}, {2, 2, 2, 2});
  EXPECT_DOUBLE_EQ(ci.low, 1.5);
  EXPECT_DOUBLE_EQ(ci.high, 1.5);
  const auto single = bootstrap_median_ratio_ci({4}, {2});
  EXPECT_DOUBLE_EQ(single.low, 2);
  EXPECT_DOUBLE_EQ(single.high, 2);
}

TEST(Bootstrap, EdgeCasesAreInvalid) {
  EXPECT_FALSE(bootstrap_median_ratio_ci({}, {1}).valid());
  EXPECT_FALSE(bootstrap_median_ratio_ci({1}, {}).valid());
  EXPECT_FALSE(bootstrap_median_ratio_ci({1}, {1}, 0).valid());
  EXPECT_FALSE(bootstrap_median_ratio_ci({1}, {1}, 100, 1.0).valid());
}

TEST(Bootstrap, SameSeedSameIntervalOtherSeedClose) {
  const std::vector<double> a = {1.0, 1.2, 0.9, 1.1, 1.05, 0.95, 1.3, 1.0};
  const std::vector<double> b = {0.5, 0.55, 0.6, 0.52, 0.48, 0.51, 0.58, 0.5};
  const auto first = bootstrap_median_ratio_ci(a, b, 2000, 0.95, 7);
  const auto again = bootstrap_median_ratio_ci(a, b, 2000, 0.95, 7);
  EXPECT_EQ(first.low, again.low);
  EXPECT_EQ(first.high, again.high);
  const auto other = bootstrap_median_ratio_ci(a, b, 2000, 0.95, 8);
  EXPECT_NEAR(other.low, first.low, 0.1 * (first.high - first.low));
  EXPECT_NEAR(other.high, first.high, 0.1 * (first.high - first.low));
  // The point estimate median(a) / median(b) = 1.025 / 0.515 lies inside.
  EXPECT_TRUE(first.contains(1.025 / 0.515));
}

// Known value by construction: a = 2 x b exactly, shuffled. Every resample
// pair has ratio near 2, and the interval must contain exactly 2 and narrow
// with n (the percentile interval of a median shrinks like 1/sqrt(n)).
TEST(Bootstrap, CoversAPlantedRatioAndNarrowsWithSamples) {
  std::mt19937_64 generator(3);
  std::normal_distribution<double> noise(1.0, 0.05);
  auto draw = [&](size_t n, double scale) {
    std::vector<double> values;
    for (size_t i = 0; i < n; ++i) values.push_back(scale * noise(generator));
    return values;
  };
  const auto small = bootstrap_median_ratio_ci(draw(20, 2.0), draw(20, 1.0));
  const auto large = bootstrap_median_ratio_ci(draw(500, 2.0), draw(500, 1.0));
  EXPECT_TRUE(small.contains(2.0)) << small.low << " " << small.high;
  EXPECT_TRUE(large.contains(2.0)) << large.low << " " << large.high;
  EXPECT_LT(large.high - large.low, 0.5 * (small.high - small.low));
}

TEST(Bootstrap, PreciseEnough) {
  EXPECT_TRUE(precise_enough({0.99, 1.01}, 1.0, 0.01));
  EXPECT_FALSE(precise_enough({0.98, 1.02}, 1.0, 0.01));
  EXPECT_TRUE(precise_enough({1.98, 2.02}, 2.0, 0.01));  // relative to the estimate
  EXPECT_FALSE(precise_enough({}, 1.0, 0.5));
}

}  // namespace
}  // namespace tracebench
