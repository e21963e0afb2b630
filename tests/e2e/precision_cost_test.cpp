// End-to-end: a row that ran below float32 says at which precision and what it
// cost against float32 eager (accuracy_check/evaluation_set.h), in every report; a
// float32 row says fp32 and leaves the cost empty.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>

#include "test_paths.h"
#include "tracebench_cli.h"

namespace tracebench {
namespace {

using testing::tracebench;
using testing::tracebench_json;

const nlohmann::json& row_of(const nlohmann::json& report, const std::string& backend) {
  for (const auto& row : report["rows"]) {
    if (row["backend"] == backend) return row;
  }
  throw std::runtime_error("no " + backend + " row in " + report.dump());
}

// LinearModel's [batch, 10] logits over 16 sets of 8 random inputs take all
// ten classes, so top-1 is measured; int8_dynamic quantizes both layers.
TEST(PrecisionCost, AnInt8RowCarriesItsPrecisionSqnrAndTop1) {
  const auto csv = testing::process_temp_path("precision_cost.csv");
  const auto report =
      tracebench_json({"--performance", "--backend=ts,int8_dynamic", "-k", "^Linear",
                       "--batch-size", "8", "-n", "3", "--output", csv.string()},
                      "precision_cost.json");
  const auto& int8 = row_of(report, "int8_dynamic");
  ASSERT_EQ(int8["status"], "pass") << int8;
  EXPECT_EQ(int8["precision"], "fp32");  // the run's setting, part of the row's key
  EXPECT_EQ(int8["ran_precision"], "int8");
  // int8 weights and activations on a 10x10 layer: tens of dB, never exact.
  ASSERT_TRUE(int8["sqnr_db"].is_number()) << int8;
  EXPECT_GT(int8["sqnr_db"].get<double>(), 15.0) << int8;
  EXPECT_LT(int8["sqnr_db"].get<double>(), 90.0) << int8;
  ASSERT_TRUE(int8["top1_agreement"].is_number()) << int8["warnings"];
  EXPECT_GT(int8["top1_agreement"].get<double>(), 50.0);
  EXPECT_LE(int8["top1_agreement"].get<double>(), 100.0);

  const auto& exact = row_of(report, "ts");
  EXPECT_EQ(exact["ran_precision"], "fp32");
  EXPECT_TRUE(exact["sqnr_db"].is_null()) << exact;
  EXPECT_TRUE(exact["top1_agreement"].is_null()) << exact;

  const auto csv_text = testing::read_file(csv);
  EXPECT_NE(csv_text.find(",ran_precision,sqnr_db,top1_agreement"), std::string::npos) << csv_text;
  EXPECT_NE(csv_text.find(",int8,"), std::string::npos) << csv_text;
}

// The console line and the grid say it too, as a user reads them.
TEST(PrecisionCost, TheConsoleLineAndGridShowTheCost) {
  const auto result = tracebench({"--performance", "--backend=eager,int8_dynamic", "-k", "^Linear",
                                  "--batch-size", "8", "-n", "3"});
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(std::regex_search(
      result.output, std::regex(R"(int8_dynamic +\d+\.\d{3}x \[[^\]]+\] p=\d\.\d{2} int8 )"
                                R"(sqnr=\d+\.\ddB top1=\d+\.\d%)")))
      << result.output;
  EXPECT_TRUE(std::regex_search(result.output, std::regex(R"(\| +\d+\.\d{3} int8 sqnr=)")))
      << result.output;
}

// With --bfloat16 every row ran bf16, eager's too, and each is scored against
// float32, so even the A/A row has a finite SQNR.
TEST(PrecisionCost, UnderBfloat16EveryRowIsScoredAgainstFloat32) {
  const auto report =
      tracebench_json({"--performance", "--backend=eager", "--bfloat16", "-k", "^Linear",
                       "--batch-size", "8", "-n", "3", "--eval-inputs", "4"},
                      "precision_cost_bf16.json");
  const auto& row = row_of(report, "eager");
  EXPECT_EQ(row["precision"], "bf16");
  EXPECT_EQ(row["ran_precision"], "bf16");
  ASSERT_TRUE(row["sqnr_db"].is_number()) << row;
  EXPECT_GT(row["sqnr_db"].get<double>(), 20.0);
  EXPECT_EQ(report["config"]["eval_inputs"], 4);
  // A top-1 figure, or the row says why there is none: never neither.
  const bool says_why = row["warnings"].dump().find("no top-1") != std::string::npos;
  EXPECT_NE(row["top1_agreement"].is_null(), !says_why) << row;
}

// --accuracy's rows carry the same measures: the check's pass or fail, and
// beside it what the lower precision cost on the evaluation set.
TEST(PrecisionCost, AccuracyRowsCarryTheSameMeasures) {
  const auto report = tracebench_json({"--accuracy", "--backend=ofi,int8_dynamic", "-k", "^Linear",
                                       "--batch-size", "8", "--eval-inputs", "4"},
                                      "precision_cost_accuracy.json");
  const auto& int8 = row_of(report, "int8_dynamic");
  EXPECT_EQ(int8["ran_precision"], "int8") << int8;
  ASSERT_TRUE(int8["sqnr_db"].is_number()) << int8;
  EXPECT_GT(int8["sqnr_db"].get<double>(), 15.0) << int8;
  const auto& exact = row_of(report, "ofi");
  EXPECT_EQ(exact["ran_precision"], "fp32") << exact;
  EXPECT_TRUE(exact["sqnr_db"].is_null()) << exact;
}

// Under a budget by measure auto may pick any precision, but never one whose
// cost on the evaluation set is outside the budget: its row says what ran and,
// below float32, a cost within it. The config records the budget as given.
TEST(PrecisionCost, AutoWithinABudgetKeepsItOnItsRow) {
  const auto report =
      tracebench_json({"--performance", "--backend=auto", "--auto-tolerance", "sqnr=30", "-k",
                       "^Linear", "--batch-size", "8", "-n", "3", "--eval-inputs", "4"},
                      "precision_cost_auto.json");
  EXPECT_EQ(report["config"]["auto_tolerance"], "sqnr=30");
  const auto& row = row_of(report, "auto");
  ASSERT_EQ(row["status"], "pass") << row;
  ASSERT_FALSE(row["chosen"].get<std::string>().empty()) << row;
  if (row["ran_precision"] != "fp32") {
    ASSERT_TRUE(row["sqnr_db"].is_number()) << row;
    EXPECT_GE(row["sqnr_db"].get<double>(), 30.0) << row;
  }
  // Every reduced-precision candidate was weighed: timed, or dropped with why.
  for (const char* reduced : {"int8_dynamic", "ofi_bf16"}) {
    const bool timed = row["counters"].contains(std::string("auto_candidate_ms.") + reduced);
    const bool dropped =
        row["warnings"].dump().find(std::string(reduced) + " fails") != std::string::npos;
    EXPECT_TRUE(timed || dropped) << reduced << "\n" << row;
  }
}

}  // namespace
}  // namespace tracebench
