#include "performance/sample_budget.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "measure/schedule.h"

namespace tracebench {
namespace {

TEST(SampleBudget, FixedModeIsTheInterleavedScheduleForRepeat) {
  RunOptions options;
  options.repeat = 6;
  SampleBudget budget(options, 3);
  const auto expected = interleaved_schedule(3, 6, options.seed);
  std::vector<double> samples;
  int repetitions = 0;
  while (budget.another_repetition()) {
    EXPECT_EQ(budget.next_order(), expected[repetitions]);
    budget.finish_repetition({&samples, &samples, &samples});
    ++repetitions;
  }
  EXPECT_EQ(repetitions, 6);
}

TEST(SampleBudget, BlockedOrderGivesEachParticipantItsSamplesInARow) {
  RunOptions options;
  options.repeat = 3;
  options.sample_order = SampleOrder::kBlocked;
  SampleBudget budget(options, 3);
  std::vector<size_t> turns;
  std::vector<int64_t> sample_indices;
  std::vector<double> samples;
  while (budget.another_repetition()) {
    sample_indices.push_back(budget.sample_index());
    const auto order = budget.next_order();
    turns.insert(turns.end(), order.begin(), order.end());
    budget.finish_repetition({&samples, &samples, &samples});
  }
  EXPECT_EQ(turns, (std::vector<size_t>{0, 0, 0, 1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(sample_indices, (std::vector<int64_t>{0, 1, 2, 0, 1, 2, 0, 1, 2}));
}

// Each backend is dropped once its CI is tight: a steady backend stops at the
// first check (10 samples), a noisy one keeps going until the time cap.
TEST(SampleBudget, AdaptiveStopsEachBackendWhenItsCiIsTight) {
  RunOptions options;
  options.target_ci = 0.01;
  options.max_time_s = 0.3;
  SampleBudget budget(options, 3);
  std::vector<std::vector<double>> samples(3);
  int repetitions = 0, steady_stopped_at = -1;
  while (budget.another_repetition()) {
    const auto order = budget.next_order();
    if (steady_stopped_at < 0 && std::find(order.begin(), order.end(), 1) == order.end()) {
      steady_stopped_at = repetitions;
    }
    for (size_t index : order) {
      const double noise = index == 2 ? ((repetitions * 7919) % 13) * 0.1 : 0.0;
      samples[index].push_back(1.0 + noise);
    }
    budget.finish_repetition({&samples[0], &samples[1], &samples[2]});
    ++repetitions;
  }
  EXPECT_EQ(steady_stopped_at, kAdaptiveMinSamples);
  EXPECT_EQ(samples[1].size(), static_cast<size_t>(kAdaptiveMinSamples));
  EXPECT_GT(samples[2].size(), samples[1].size());
}

TEST(SampleBudget, AdaptiveDropsFailedBackends) {
  RunOptions options;
  options.target_ci = 0.01;
  SampleBudget budget(options, 2);
  std::vector<double> eager;
  int repetitions = 0;
  while (budget.another_repetition()) {
    budget.next_order();
    eager.push_back(1);
    budget.finish_repetition({&eager, nullptr});
    ++repetitions;
  }
  EXPECT_EQ(repetitions, kAdaptiveMinSamples);
}

}  // namespace
}  // namespace tracebench
