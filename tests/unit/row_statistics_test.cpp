// add_row_statistics: the noise warnings of the compared backend and of the
// eager baseline stay apart, including in an A/A run where both are "eager".

#include <gtest/gtest.h>

#include <algorithm>

#include "performance/row_statistics.h"

namespace tracebench {
namespace {

// Alternating 10 ms / 20 ms samples: CV ~ 33%, so noise_warnings reports
// high_cv and nothing else (ten samples, none slow at the start, none short).
std::vector<double> noisy_samples() {
  std::vector<double> samples;
  for (int i = 0; i < 10; ++i) samples.push_back(i % 2 == 0 ? 0.010 : 0.020);
  return samples;
}

ResultRow noisy_row(const std::string& backend) {
  ResultRow row;
  row.model = "LinearModel";
  row.backend = backend;
  row.samples_s = noisy_samples();
  row.eager_samples_s = noisy_samples();
  return row;
}

TEST(RowStatistics, BackendAndBaselineWarningsAreBothKept) {
  auto row = noisy_row("ts");
  add_row_statistics(row, 1);
  EXPECT_EQ(row.warning_codes, (std::vector<std::string>{"high_cv", "eager_high_cv"}));
  ASSERT_EQ(row.warnings.size(), 2u);
  EXPECT_EQ(row.warnings[0].rfind("ts: noisy samples", 0), 0u) << row.warnings[0];
  EXPECT_EQ(row.warnings[1].rfind("eager baseline: noisy samples", 0), 0u) << row.warnings[1];
}

// The A/A bug: the compared backend named "eager" took the baseline's codes
// and the baseline's own warnings were dropped as duplicates.
TEST(RowStatistics, AaRunKeepsTheBaselineWarningsApartFromTheBackends) {
  auto row = noisy_row("eager");
  add_row_statistics(row, 1);
  EXPECT_EQ(row.warning_codes, (std::vector<std::string>{"high_cv", "eager_high_cv"}));
  ASSERT_EQ(row.warnings.size(), 2u);
  EXPECT_EQ(row.warnings[0].rfind("eager: noisy samples", 0), 0u) << row.warnings[0];
  EXPECT_EQ(row.warnings[1].rfind(kBaselineWarningMessagePrefix, 0), 0u) << row.warnings[1];
  EXPECT_NE(row.warnings[0], row.warnings[1]);
}

// The noise warnings join what the backend already said of itself: they
// used to replace it, so no row showed auto's dropped candidates.
TEST(RowStatistics, BackendsOwnWarningsStay) {
  auto row = noisy_row("ofi_bf16");
  row.add_warning("bf16_emulated", "ofi_bf16: bfloat16 is emulated");
  add_row_statistics(row, 1);
  EXPECT_EQ(row.warning_codes,
            (std::vector<std::string>{"bf16_emulated", "high_cv", "eager_high_cv"}));

  row = noisy_row("ofi_bf16");
  row.samples_s = row.eager_samples_s = std::vector<double>(10, 0.010);
  row.add_warning("bf16_emulated", "ofi_bf16: bfloat16 is emulated");
  add_row_statistics(row, 1);
  EXPECT_EQ(row.warning_codes, std::vector<std::string>{"bf16_emulated"});
  EXPECT_EQ(row.warnings, std::vector<std::string>{"ofi_bf16: bfloat16 is emulated"});
}

}  // namespace
}  // namespace tracebench
