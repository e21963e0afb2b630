// auto's timing rounds, on a stand-in clock: what is isolated here is which
// candidate wins from which samples, not the backends' speed.

#include "backends/auto_rounds.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace tracebench {
namespace {

// A candidate that looks 3% faster in the first rounds and is 5% slower after
// loses the run-off to a steady one; one 2x slower never runs in it.
TEST(AutoRounds, TheRunoffOverturnsALuckyStart) {
  std::vector<int> calls(3, 0);
  const RoundsPlan plan;
  const auto rounds = time_candidates_in_rounds(3, [&](size_t candidate) {
    const int call = calls[candidate]++;
    switch (candidate) {
      case 0:
        return 1.00;
      case 1:
        return call < plan.first_rounds ? 0.97 : 1.05;
      default:
        return 2.00;
    }
  });
  EXPECT_EQ(rounds.fastest, 0u);
  EXPECT_EQ(rounds.runoff_candidates, 2u);
  EXPECT_EQ(calls[0], plan.first_rounds + plan.runoff_rounds);
  EXPECT_EQ(calls[1], plan.first_rounds + plan.runoff_rounds);
  EXPECT_EQ(calls[2], plan.first_rounds);
  EXPECT_EQ(rounds.samples_s[1].size(), static_cast<size_t>(calls[1]));
  EXPECT_DOUBLE_EQ(rounds.medians_s[1], 1.05);
  EXPECT_DOUBLE_EQ(rounds.medians_s[2], 2.00);
}

// Candidates far apart need no run-off: the first rounds decide.
TEST(AutoRounds, NoRunoffWhenOneIsClearlyFastest) {
  int calls = 0;
  const auto rounds = time_candidates_in_rounds(2, [&](size_t candidate) {
    ++calls;
    return candidate == 1 ? 0.5 : 1.0;
  });
  EXPECT_EQ(rounds.fastest, 1u);
  EXPECT_EQ(rounds.runoff_candidates, 0u);
  EXPECT_EQ(calls, 2 * RoundsPlan{}.first_rounds);
}

// Calls alternate between candidates within a round, so load drift hits all.
TEST(AutoRounds, RoundsInterleaveTheCandidates) {
  std::vector<size_t> order;
  time_candidates_in_rounds(
      2,
      [&](size_t candidate) {
        order.push_back(candidate);
        return 1.0;
      },
      RoundsPlan{2, 1, 0.05});
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 0, 1, 0, 1}));
}

TEST(AutoRounds, NoCandidateIsAnError) {
  EXPECT_THROW(time_candidates_in_rounds(0, [](size_t) { return 1.0; }), std::invalid_argument);
}

}  // namespace
}  // namespace tracebench
