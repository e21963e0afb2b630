#include "measure/diagnostics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace tracebench {
namespace {

std::vector<std::string> codes(const std::vector<NoiseWarning>& warnings) {
  std::vector<std::string> out;
  for (const auto& w : warnings) out.push_back(w.code);
  return out;
}

TEST(Diagnostics, CoefficientOfVariation) {
  // sd({1..5}) = sqrt(2.5), mean 3.
  EXPECT_NEAR(coefficient_of_variation({1, 2, 3, 4, 5}), std::sqrt(2.5) / 3, 1e-12);
  EXPECT_TRUE(std::isnan(coefficient_of_variation({1})));
}

TEST(Diagnostics, QuietLongSamplesHaveNoWarnings) {
  std::vector<double> samples(20, 0.010);
  samples[3] = 0.0101;
  EXPECT_TRUE(noise_warnings(samples, 1).empty());
}

TEST(Diagnostics, HighCv) {
  const auto found = noise_warnings({0.010, 0.020, 0.010, 0.020}, 1);
  ASSERT_EQ(codes(found), std::vector<std::string>{"high_cv"});
  EXPECT_NE(found[0].message.find("CV 38.5%"), std::string::npos) << found[0].message;
}

TEST(Diagnostics, SlowStart) {
  std::vector<double> samples(20, 0.010);
  samples[0] = samples[1] = 0.030;  // first tenth (2 samples) three times slower
  const auto found = codes(noise_warnings(samples, 1));
  EXPECT_NE(std::find(found.begin(), found.end(), "slow_start"), found.end());
  // Fewer than 10 samples: no verdict.
  EXPECT_TRUE(codes(noise_warnings({0.03, 0.01, 0.01, 0.01}, 1)) ==
              std::vector<std::string>{"high_cv"});
}

TEST(Diagnostics, ShortSamplesSuggestIterations) {
  const auto found = noise_warnings(std::vector<double>(5, 0.0001), 1);
  ASSERT_EQ(codes(found), std::vector<std::string>{"short_samples"});
  EXPECT_NE(found[0].message.find("--iterations-per-run to 10 "), std::string::npos)
      << found[0].message;
  // The same per-call time with 20 calls per sample is 2 ms: fine.
  EXPECT_TRUE(noise_warnings(std::vector<double>(5, 0.0001), 20).empty());
}

}  // namespace
}  // namespace tracebench
