#include "measure/schedule.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace tracebench {
namespace {

TEST(Schedule, EveryRepetitionIsAPermutation) {
  const auto schedule = interleaved_schedule(4, 50, 1337);
  ASSERT_EQ(schedule.size(), 50u);
  for (auto order : schedule) {
    std::sort(order.begin(), order.end());
    EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3}));
  }
}

TEST(Schedule, SameSeedSameOrderOtherSeedOtherOrder) {
  EXPECT_EQ(interleaved_schedule(3, 20, 7), interleaved_schedule(3, 20, 7));
  EXPECT_NE(interleaved_schedule(3, 20, 7), interleaved_schedule(3, 20, 8));
}

TEST(Schedule, EveryParticipantGoesFirstRoughlyEquallyOften) {
  // Shuffling exists so that no backend is always measured first (the dynamo
  // runner always measures eager first). 3000 draws, 3 participants: each
  // leads about 1000 times; 850 is more than 5 standard deviations away.
  const auto schedule = interleaved_schedule(3, 3000, 42);
  std::vector<int> first(3, 0);
  for (const auto& order : schedule) ++first[order[0]];
  for (int count : first) EXPECT_GT(count, 850);
}

}  // namespace
}  // namespace tracebench
