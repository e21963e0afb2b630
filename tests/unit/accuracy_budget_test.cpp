// --auto-tolerance's budget (accuracy/accuracy_budget.h): what it reads, how
// it writes itself back, and which measured costs keep it.

#include "accuracy/accuracy_budget.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace tracebench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(AccuracyBudget, ANameBoundsTheNumericsAndMeasuresNothing) {
  for (const Numerics numerics : {Numerics::kExact, Numerics::kBFloat16, Numerics::kInt8}) {
    const auto budget = parse_accuracy_budget(numerics_label(numerics));
    EXPECT_EQ(budget.loosest, numerics);
    EXPECT_FALSE(budget.by_measure());
    EXPECT_EQ(accuracy_budget_label(budget), numerics_label(numerics));
  }
}

// A budget by measure opens every numerics: the bounds decide, in any order.
TEST(AccuracyBudget, MeasuresReadBackAsTheyWereGiven) {
  const auto sqnr = parse_accuracy_budget("sqnr=30");
  EXPECT_EQ(sqnr.loosest, Numerics::kInt8);
  EXPECT_EQ(sqnr.min_sqnr_db, 30.0);
  EXPECT_FALSE(sqnr.min_top1_percent.has_value());
  const auto both = parse_accuracy_budget("top1=99.5,sqnr=25");
  EXPECT_EQ(both.min_sqnr_db, 25.0);
  EXPECT_EQ(both.min_top1_percent, 99.5);
  EXPECT_EQ(accuracy_budget_label(both), "sqnr=25,top1=99.5");
  EXPECT_EQ(accuracy_budget_label(parse_accuracy_budget(accuracy_budget_label(both))),
            "sqnr=25,top1=99.5");
}

TEST(AccuracyBudget, WhatItCannotReadNamesTheAcceptedForms) {
  for (const char* text : {"", "fp16", "sqnr", "sqnr=", "sqnr=x", "sqnr=30dB", "sqnr=-1",
                           "top1=101", "speed=2", "sqnr=20,sqnr=30", "sqnr=nan"}) {
    try {
      parse_accuracy_budget(text);
      ADD_FAILURE() << "'" << text << "' was read";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("sqnr=30 (dB), top1=99 (%)"), std::string::npos)
          << error.what();
    }
  }
}

// Known answers at the bounds: a cost exactly at the bound keeps it, one a
// tenth below does not, and a measure that could not be had never does.
TEST(AccuracyBudget, ACostKeepsTheBudgetAtOrAboveEveryBound) {
  const auto budget = parse_accuracy_budget("sqnr=30,top1=99");
  const Top1Agreement agrees{99.0, ""};
  EXPECT_EQ(budget_shortfall(budget, 30.0, agrees), "");
  EXPECT_EQ(budget_shortfall(budget, std::numeric_limits<double>::infinity(), agrees), "");
  EXPECT_EQ(budget_shortfall(budget, 29.9, agrees), "sqnr 29.9 dB is below the budget's 30");
  EXPECT_EQ(budget_shortfall(budget, 31.0, Top1Agreement{98.9, ""}),
            "top-1 agreement 98.9% is below the budget's 99%");
  EXPECT_EQ(budget_shortfall(budget, kNaN, agrees),
            "its sqnr cannot be measured (no floating-point output)");
  EXPECT_EQ(budget_shortfall(budget, 31.0, Top1Agreement{kNaN, "predictions take 3 classes"}),
            "its top-1 agreement cannot be measured: predictions take 3 classes");
  // Only the bounds given count: sqnr=30 asks nothing of top-1.
  EXPECT_EQ(budget_shortfall(parse_accuracy_budget("sqnr=30"), 31.0, Top1Agreement{kNaN, "x"}), "");
}

}  // namespace
}  // namespace tracebench
