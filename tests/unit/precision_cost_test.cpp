// The two figures a row below float32 carries (accuracy/precision_cost.h), on
// outputs whose answer is known: noise of a given norm, predictions that
// disagree on a given share.

#include "accuracy/precision_cost.h"

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>

namespace tracebench {
namespace {

std::vector<c10::IValue> calls(std::initializer_list<torch::Tensor> outputs) {
  return std::vector<c10::IValue>(outputs.begin(), outputs.end());
}

// ||ref|| = 10 over two calls of 50 ones, ||noise|| = 0.1: 20 log10(100) = 40 dB.
// Taking 20 log10 of the squared norms' ratio (a 10/20 mix-up) gives 80.
TEST(PrecisionCost, SqnrIsTwentyLogOfTheNormsRatioOverEveryCall) {
  const auto ref = torch::ones({5, 10});
  const auto noisy = ref + 0.01;
  // 1.01 in float32 is 1.01 within 1e-7: 1e-4 dB.
  EXPECT_NEAR(sqnr_db(calls({ref, ref}), calls({noisy, noisy})), 40.0, 1e-4);
  // Noise in one call only: ||noise|| = sqrt(50 * 1e-4), 10 / 0.0707 -> 43.01 dB.
  EXPECT_NEAR(sqnr_db(calls({ref, ref}), calls({noisy, ref})),
              20 * std::log10(10 / std::sqrt(0.005)), 1e-4);
}

TEST(PrecisionCost, SqnrCountsEveryFloatOutputOfATuple) {
  const auto big = torch::full({100}, 3.0);
  const auto small = torch::ones({100});
  const c10::IValue ref = c10::ivalue::Tuple::create({big, small, torch::arange(3)});
  // The noise sits in the second output only: ignoring it would give +inf.
  const c10::IValue out = c10::ivalue::Tuple::create({big, small + 0.1, torch::arange(3)});
  // signal 100 * (9 + 1) = 1000, noise 100 * 0.01 = 1: 10 log10(1000) = 30 dB.
  EXPECT_NEAR(sqnr_db({ref}, {out}), 30.0, 1e-4);
}

TEST(PrecisionCost, SqnrOfIdenticalOutputsIsInfiniteAndOfMismatchedOnesUnknown) {
  const auto ref = torch::randn({4, 4});
  EXPECT_EQ(sqnr_db(calls({ref}), calls({ref.clone()})), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(sqnr_db(calls({ref}), calls({ref.reshape({16})}))));
  EXPECT_TRUE(std::isnan(sqnr_db(calls({torch::zeros({4})}), calls({torch::ones({4})}))));
  EXPECT_TRUE(std::isnan(sqnr_db(calls({torch::arange(4)}), calls({torch::arange(4)}))));
}

// Logits whose argmax is `classes[i]` in row i.
torch::Tensor logits_for(const std::vector<int64_t>& classes, int64_t class_count) {
  auto logits = torch::zeros({static_cast<int64_t>(classes.size()), class_count});
  for (size_t i = 0; i < classes.size(); ++i) logits[static_cast<int64_t>(i)][classes[i]] = 1.0;
  return logits;
}

// 12 predictions over 12 classes in two calls; the backend moves 3 of them.
TEST(PrecisionCost, Top1AgreementIsTheShareOfPredictionsKept) {
  const auto ref =
      calls({logits_for({0, 1, 2, 3, 4, 5}, 12), logits_for({6, 7, 8, 9, 10, 11}, 12)});
  const auto out = calls({logits_for({0, 1, 2, 3, 4, 0}, 12), logits_for({6, 7, 0, 9, 0, 11}, 12)});
  const auto top1 = top1_agreement(ref, out);
  EXPECT_DOUBLE_EQ(top1.percent, 75.0) << top1.why_not;
  EXPECT_TRUE(top1.why_not.empty());
}

// A model whose every prediction falls on few classes agrees with anything:
// no figure, and the reason says how many classes it took.
TEST(PrecisionCost, Top1NeedsTenClassesFromFloat32) {
  const auto ref = calls({logits_for({0, 1, 2, 3, 4, 5, 6, 7, 8, 8}, 12)});
  const auto top1 = top1_agreement(ref, ref);
  EXPECT_TRUE(std::isnan(top1.percent));
  EXPECT_NE(top1.why_not.find("10 inputs take 9 classes, fewer than 10"), std::string::npos)
      << top1.why_not;
}

TEST(PrecisionCost, Top1NeedsAClassifiersOutput) {
  const auto sequence = calls({torch::randn({2, 8, 30})});
  const auto top1 = top1_agreement(sequence, sequence);
  EXPECT_TRUE(std::isnan(top1.percent));
  EXPECT_NE(top1.why_not.find("not shaped [batch, classes]"), std::string::npos) << top1.why_not;
}

}  // namespace
}  // namespace tracebench
