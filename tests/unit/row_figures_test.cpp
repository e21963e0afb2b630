#include "report/row_figures.h"

#include <gtest/gtest.h>

#include <cmath>

#include "measure/compute_peak.h"
#include "measure/statistics.h"
#include "performance/compute_limit.h"

namespace tracebench {
namespace {

TEST(LatencyPercentiles, SamplesNeededPerPercentile) {
  EXPECT_EQ(samples_for_percentile(50), 2u);
  EXPECT_EQ(samples_for_percentile(90), 10u);
  EXPECT_EQ(samples_for_percentile(99), 100u);
  EXPECT_EQ(samples_for_percentile(99.9), 1000u);
}

TEST(LatencyPercentiles, NearestRankOnKnownValues) {
  std::vector<double> values;
  for (int i = 100; i >= 1; --i) values.push_back(i);  // unsorted on purpose
  EXPECT_EQ(nearest_rank_percentile(values, 50), 50);
  EXPECT_EQ(nearest_rank_percentile(values, 90), 90);
  EXPECT_EQ(nearest_rank_percentile(values, 99), 99);
  EXPECT_TRUE(std::isnan(nearest_rank_percentile(values, 99.9)));
  // The textbook case: 15, 20, 35, 40, 50 has p30 = 20 and p40 = 20.
  EXPECT_EQ(nearest_rank_percentile({50, 15, 40, 35, 20}, 40), 20);
  EXPECT_EQ(nearest_rank_percentile({50, 15, 40, 35, 20}, 50), 35);
  EXPECT_TRUE(std::isnan(nearest_rank_percentile({1.0}, 50)));
  EXPECT_TRUE(std::isnan(nearest_rank_percentile({}, 50)));
}

ResultRow row_with_samples(size_t count, double seconds) {
  ResultRow row;
  row.backend = "ofi";
  row.batch_size = 4;
  row.samples_s.assign(count, seconds);
  return row;
}

TEST(LatencyPercentiles, ThroughputIsBatchTimesCallsOverTime) {
  auto row = row_with_samples(10, 0.01);
  row.samples_s[0] = 0.03;  // 12 calls' worth of time in 10 calls
  EXPECT_NEAR(throughput_per_s(row), 4 * 10 / 0.12, 1e-9);
  EXPECT_NEAR(percentile_latency_ms(row, 50), 10.0, 1e-12);
  EXPECT_NEAR(percentile_latency_ms(row, 90), 10.0, 1e-12);  // rank 9 of 10
  EXPECT_TRUE(std::isnan(throughput_per_s(row_with_samples(0, 0))));
}

TEST(LatencyPercentiles, WarnsForEachPercentileTheSamplesCannotResolve) {
  auto row = row_with_samples(150, 0.01);
  warn_unsupported_percentiles(row);
  ASSERT_EQ(row.warning_codes, std::vector<std::string>{"few_samples_for_p999_latency"});
  EXPECT_NE(row.warnings[0].find("run with -n 1000"), std::string::npos) << row.warnings[0];
  EXPECT_EQ(row.warnings[0].rfind("ofi: p99.9 needs at least 1000 samples, this row has 150", 0),
            0u)
      << row.warnings[0];

  auto few = row_with_samples(5, 0.01);
  warn_unsupported_percentiles(few);
  EXPECT_EQ(few.warning_codes,
            (std::vector<std::string>{"few_samples_for_p90_latency", "few_samples_for_p99_latency",
                                      "few_samples_for_p999_latency"}));
}

TEST(ComputeLimit, AchievedGflopsAndPeakShare) {
  ResultRow row;
  row.flops = 8.2e9;  // resnet50 at batch 1
  row.abs_latency_ms = 41.0;
  row.peak_gflops = 400;
  EXPECT_NEAR(achieved_gflops(row), 200.0, 1e-9);
  EXPECT_NEAR(peak_share(row), 0.5, 1e-12);
  row.flops = std::nan("");
  EXPECT_TRUE(std::isnan(peak_share(row)));
}

TEST(ComputeLimit, PeakByTheArithmeticTheRowRan) {
  const std::map<std::string, double> peaks = {{"conv2d_fp32", 180},
                                               {"mm_fp32", 90},
                                               {"mm_bf16", 420},
                                               {"xnnpack_linear_fp32", 200},
                                               {"conv2d_int8", 650}};
  EXPECT_EQ(peak_gflops_for(peaks, "fp32"), 200);
  EXPECT_EQ(peak_gflops_for(peaks, "bf16"), 420);
  EXPECT_EQ(peak_gflops_for(peaks, "amp"), 420);
  EXPECT_EQ(peak_gflops_for(peaks, "int8"), 650);
  // int8 rows never count bfloat16 kernels, nor float rows int8 ones.
  EXPECT_EQ(peak_gflops_for({{"mm_fp32", 90}, {"mm_bf16", 420}}, "int8"), 90);
  EXPECT_EQ(peak_gflops_for({{"mm_fp32", 90}, {"mm_int8", 700}}, "bf16"), 90);
  EXPECT_TRUE(std::isnan(peak_gflops_for({}, "fp32")));

  ResultRow row;
  row.precision = "fp32";
  row.backend = "ofi_bf16";
  set_peak_gflops(row, peaks);  // it did not run: no ran_precision, no peak
  EXPECT_TRUE(std::isnan(row.peak_gflops));
  row.ran_precision = "bf16";  // bfloat16 arithmetic in an fp32 run
  set_peak_gflops(row, peaks);
  EXPECT_EQ(row.peak_gflops, 420);
  row.ran_precision = "int8";
  set_peak_gflops(row, peaks);
  EXPECT_EQ(row.peak_gflops, 650);
}

// The real probe on this machine: the float32 kernels run everywhere, and
// int8 on LibTorch's quantized engine, which both builds have on x86.
TEST(ComputeLimit, ProbeMeasuresTheFloatAndInt8Kernels) {
  const auto peaks = measure_compute_peaks();
  for (const char* kernel : {"conv2d_fp32", "mm_fp32", "conv2d_int8", "mm_int8"}) {
    EXPECT_TRUE(peaks.count(kernel)) << kernel << " missing of " << peaks.size();
  }
  for (const auto& [kernel, gflops] : peaks) {
    EXPECT_GT(gflops, 0.1) << kernel;
    EXPECT_LT(gflops, 1e5) << kernel;  // a timing bug, not a CPU
  }
}

}  // namespace
}  // namespace tracebench
