// Known answers: runs whose right result is known before they start, so that
// a test fails when a figure the reports show stops being what
// docs/statistics.md says it is. The planted parts:
// - a model that costs a known wall time per call (it spins on the clock, so
//   a preempted call still ends on time and a loaded 2-core machine moves
//   its cost by far less than the bands below);
// - a backend that costs exactly k times eager's call, and one whose timed
//   samples report given times instead of the clock's, for figures that must
//   come out exactly (an A/A p-value is uniform by nature: measured, it would
//   fail one run in twenty) (tests/support/planted_backends.h).
// Ratios are asserted within +-20% of the known one, never an absolute time.
//
// Each test was seen to fail on the bug it guards (2026-12-06, the deliberate
// break named in its comment, built and run, then reverted).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

#include "backends/registry.h"
#include "measure/statistics.h"
#include "performance/performance.h"
#include "planted_backends.h"
#include "report/compare.h"
#include "report/json.h"
#include "report/row_figures.h"

namespace tracebench {
namespace {

using Clock = std::chrono::steady_clock;
using testing::plant_cost;
using testing::plant_times;
using testing::spin_until;

// Half a millisecond per row of its input: batch 4 costs 2 ms.
constexpr double kSecondsPerRow = 0.5e-3;

struct SpinModule : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    spin_until(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(kSecondsPerRow * x.size(0))));
    return x * 2;
  }
  std::vector<torch::Tensor> get_example_inputs() { return {torch::randn({1, 8})}; }
};

// 64x256 by 256x256: 2 x 64 x 256 x 256 FLOPs per call, as the counter counts
// a matrix product (measure/flops.cpp).
struct MatmulModule : torch::nn::Module {
  MatmulModule() { weight = register_parameter("weight", torch::randn({256, 256})); }
  torch::Tensor forward(torch::Tensor x) { return torch::mm(x, weight); }
  std::vector<torch::Tensor> get_example_inputs() { return {torch::randn({64, 256})}; }
  torch::Tensor weight;
};
constexpr double kMatmulFlops = 2.0 * 64 * 256 * 256;

template <typename Module>
LoadedModel load(const std::string& name) {
  torch::manual_seed(0);
  LoadedModel loaded;
  loaded.name = name;
  loaded.reload = [name] {
    return std::make_unique<NnModel<Module>>(name, std::make_shared<Module>());
  };
  loaded.model = loaded.reload();
  loaded.inputs = loaded.model->example_inputs();
  loaded.batch_size = loaded.inputs[0].toTensor().size(0);
  return loaded;
}

RunOptions performance_options(const std::vector<std::string>& backends, int64_t repeat) {
  RunOptions options;
  options.backends = backends;
  options.repeat = repeat;
  options.warmup = 2;
  return options;
}

// Each model runs at the first point of the request's sweep, as a child does.
std::vector<ResultRow> measure(LoadedModel& loaded, const RunOptions& options) {
  return measure_performance(loaded, first_point_run(options));
}

void expect_within(double measured, double known, double band, const std::string& what) {
  EXPECT_GE(measured, known * (1 - band)) << what << ": known " << known;
  EXPECT_LE(measured, known * (1 + band)) << what << ": known " << known;
}

// A backend k times as slow as eager measures a speedup of 1/k: 1.0 for the
// measured A/A case (k = 1), and for k = 2 and 4 inside its bootstrap
// interval, which excludes 1.0, with a small Welch's p. Seen to fail with the
// speedup inverted (backend median over eager's in performance.cpp's
// summarize: 2.0 and 4.0 against 0.5 and 0.25) and with Welch's p returned as
// 1 - p (measure/statistics.cpp: 1.0).
TEST(KnownAnswer, ABackendKTimesSlowerMeasuresOneOverK) {
  for (const double k : {1.0, 2.0, 4.0}) {
    const auto planted = plant_cost("test_cost_k", k);
    auto loaded = load<SpinModule>("spin");
    // 60 samples: with 20, under ctest -j 2 beside another model's process,
    // preempted eager samples once stretched k=4's interval to 0.43.
    const auto rows = measure(loaded, performance_options({"test_cost_k"}, 60));
    ASSERT_EQ(rows.size(), 1u);
    const auto& row = rows[0];
    ASSERT_TRUE(row.passed()) << row.error;
    const std::string what = "k=" + std::to_string(k);
    expect_within(row.speedup, 1 / k, 0.2, what + " speedup");
    if (k == 1) continue;  // the A/A interval and p: TheSameTimesInAnotherOrder... below
    EXPECT_LE(row.ci_low, row.speedup) << what;
    EXPECT_GE(row.ci_high, row.speedup) << what;
    expect_within(row.ci_low, 1 / k, 0.2, what + " ci_low");
    expect_within(row.ci_high, 1 / k, 0.2, what + " ci_high");
    EXPECT_LT(row.p_value, 1e-3) << what;
  }
}

// The A/A statistics on given times: eager and the backend report the same
// times in another order, so the medians are equal, Welch's t is 0, and the
// interval must hold 1.0. Then the backend's times doubled: p is small and
// the interval holds 0.5 only. Seen to fail with Welch's p returned as 1 - p
// (measure/statistics.cpp: 0.0 for the A/A pair, 1.0 for the doubled times)
// and with the speedup inverted (2.0 for the doubled times).
TEST(KnownAnswer, TheSameTimesInAnotherOrderGiveOneAndALargePValue) {
  std::mt19937_64 random(7);
  std::normal_distribution<double> around_a_millisecond(1e-3, 0.05e-3);
  std::vector<double> times(31);
  for (auto& time : times) time = around_a_millisecond(random);
  // The first time is the first call's, outside the samples: the same on both sides.
  std::vector<double> shuffled = times;
  std::shuffle(shuffled.begin() + 1, shuffled.end(), random);
  std::vector<double> doubled = shuffled;
  for (auto& time : doubled) time *= 2;

  const auto eager = plant_times("eager", times);
  const auto same = plant_times("test_same_times", shuffled);
  const auto slower = plant_times("test_doubled_times", doubled);
  auto loaded = load<SpinModule>("spin");
  const auto rows =
      measure(loaded, performance_options({"test_same_times", "test_doubled_times"}, 30));
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& row : rows) ASSERT_TRUE(row.passed()) << row.error;
  EXPECT_DOUBLE_EQ(rows[0].speedup, 1.0);
  EXPECT_GT(rows[0].p_value, 0.5);
  EXPECT_GT(rows[0].mann_whitney_p, 0.5);
  EXPECT_LE(rows[0].ci_low, 1.0);
  EXPECT_GE(rows[0].ci_high, 1.0);

  EXPECT_DOUBLE_EQ(rows[1].speedup, 0.5);
  EXPECT_LT(rows[1].p_value, 1e-6);
  EXPECT_LE(rows[1].ci_low, 0.5);
  EXPECT_GE(rows[1].ci_high, 0.5);
  EXPECT_LT(rows[1].ci_high, 1.0);
}

size_t nearest_rank(size_t count, double percent) {
  return static_cast<size_t>(std::ceil(percent / 100 * static_cast<double>(count))) - 1;
}

// The figures derived from a row's samples, read from its JSON as a user
// would: abs_latency is the median sample, the percentiles are nearest-rank
// samples, throughput is streams x batch over the mean sample. Seen to fail
// with the mean taken for the median (abs_latency 1.0132 ms against 1.0109),
// with the percentile's rank rounded down (p50 and p90 one sample low) and
// with throughput over the median sample instead of the mean.
TEST(KnownAnswer, LatencyPercentilesAndThroughputFollowFromTheSamples) {
  const auto planted = plant_cost("test_cost_two", 2.0);
  for (const int64_t streams : {1, 2}) {
    auto loaded = load<SpinModule>("spin");
    // 23 samples a stream: p90's rank (20.7, 41.4) is no integer, so that a
    // rank rounded the wrong way picks another sample.
    auto options = performance_options({"test_cost_two"}, 23);
    options.streams = streams;
    const auto rows = measure(loaded, options);
    ASSERT_EQ(rows.size(), 1u);
    ASSERT_TRUE(rows[0].passed()) << rows[0].error;
    const auto& row = rows[0];
    const auto json = row_to_json(row);
    const auto samples = json.at("samples_s").get<std::vector<double>>();
    ASSERT_EQ(samples.size(), static_cast<size_t>(23 * streams));
    auto sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    const size_t half = sorted.size() / 2;
    const double middle =
        sorted.size() % 2 == 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
    EXPECT_DOUBLE_EQ(json.at("abs_latency_ms").get<double>(), middle * 1e3);
    EXPECT_DOUBLE_EQ(json.at("p50_latency").get<double>(),
                     sorted[nearest_rank(sorted.size(), 50)] * 1e3);
    EXPECT_DOUBLE_EQ(json.at("p90_latency").get<double>(),
                     sorted[nearest_rank(sorted.size(), 90)] * 1e3);
    const double mean_s = std::accumulate(samples.begin(), samples.end(), 0.0) / samples.size();
    EXPECT_NEAR(json.at("throughput").get<double>(),
                static_cast<double>(streams * row.batch_size) / mean_s, 1e-9 / mean_s);
  }
}

// Under --shape-set batch=1,2,4 a model whose cost is proportional to the
// batch has per-shape medians in the ratio 1:2:4. Seen to fail with every
// shape's median taken over all the samples (performance.cpp's
// record_shape_latencies: each ratio 1.0).
TEST(KnownAnswer, PerShapeMediansFollowTheCostOfEachShape) {
  auto loaded = load<SpinModule>("spin");
  auto options = performance_options({"eager"}, 30);
  options.shape_set = "batch=1,2,4";
  const auto rows = measure(loaded, options);
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_TRUE(rows[0].passed()) << rows[0].error;
  const auto& at = rows[0].shape_latency_ms;
  ASSERT_EQ(at.size(), 3u);
  expect_within(at.at("batch=2") / at.at("batch=1"), 2.0, 0.2, "batch=2 over batch=1");
  expect_within(at.at("batch=4") / at.at("batch=1"), 4.0, 0.2, "batch=4 over batch=1");
}

// auto, given three planted candidates of known cost, runs the fast one, and
// its candidates' medians stand in their known ratios. Seen to fail with the
// rounds keeping the slowest (auto_rounds.cpp's comparison flipped: it ran
// test_cost_x4).
TEST(KnownAnswer, AutoPicksThePlantedFastCandidate) {
  const auto fast = plant_cost("test_cost_x1", 1.0);
  const auto slow = plant_cost("test_cost_x2", 2.0);
  const auto slowest = plant_cost("test_cost_x4", 4.0);
  auto loaded = load<SpinModule>("spin");
  torch::NoGradGuard no_grad;
  CompileOptions options;
  options.example_inputs = loaded.inputs;
  // The fast one in the middle, so that neither the first nor the last place wins.
  options.auto_candidates = {"test_cost_x4", "test_cost_x1", "test_cost_x2"};
  auto compiled = make_backend("auto")->compile(*loaded.model, options);
  EXPECT_EQ(compiled->chosen(), "test_cost_x1");
  const auto counters = compiled->counters();
  const double x1 = counters.at("auto_candidate_ms.test_cost_x1");
  expect_within(counters.at("auto_candidate_ms.test_cost_x2") / x1, 2.0, 0.2, "x2 over x1");
  expect_within(counters.at("auto_candidate_ms.test_cost_x4") / x1, 4.0, 0.2, "x4 over x1");
}

// Two runs of one backend, the second 10% slower: `compare` calls it a
// regression of about 10%; two runs at the same cost are unchanged. Seen to
// fail with the latency change taken as base / new - 1 (report/compare.cpp:
// -9%, "improved").
TEST(KnownAnswer, CompareFlagsAPlantedTenPercentRegressionAndPassesNone) {
  const auto run_at = [](double cost) {
    const auto planted = plant_cost("test_planted", cost);
    auto loaded = load<SpinModule>("spin");
    RunReport report;
    report.rows = measure(loaded, performance_options({"test_planted"}, 40));
    return report;
  };
  const auto base = run_at(1.0);
  const auto slower = run_at(1.1);
  const auto same = run_at(1.0);

  const auto regressed = compare_reports(base, slower, 0.05);
  ASSERT_EQ(regressed.changes.size(), 1u);
  EXPECT_EQ(regressed.changes[0].verdict, "regressed");
  EXPECT_EQ(regressed.regressions, 1);
  expect_within(regressed.changes[0].latency_change, 0.10, 0.3, "latency change");

  const auto unchanged = compare_reports(base, same, 0.05);
  ASSERT_EQ(unchanged.changes.size(), 1u);
  EXPECT_EQ(unchanged.changes[0].verdict, "unchanged");
  EXPECT_EQ(unchanged.regressions, 0);
}

// peak_share of a matrix product of known FLOPs is those FLOPs over its
// median time over the peak. Seen to fail with gflops taken over the mean
// sample instead of the median (report/row_figures.cpp: 33.0 GFLOP/s
// against 33.5).
TEST(KnownAnswer, PeakShareIsTheKernelsFlopsOverItsTimeOverThePeak) {
  auto loaded = load<MatmulModule>("matmul");
  auto rows = measure(loaded, performance_options({"eager"}, 10));
  ASSERT_EQ(rows.size(), 1u);
  auto& row = rows[0];
  ASSERT_TRUE(row.passed()) << row.error;
  EXPECT_EQ(row.flops, kMatmulFlops);
  constexpr double kPeakGflops = 50;
  row.peak_gflops = kPeakGflops;
  const double gflops = kMatmulFlops / median(row.samples_s) / 1e9;
  EXPECT_DOUBLE_EQ(achieved_gflops(row), gflops);
  EXPECT_DOUBLE_EQ(peak_share(row), gflops / kPeakGflops);
}

}  // namespace
}  // namespace tracebench
