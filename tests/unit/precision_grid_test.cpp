// The precision grid (report/precision_grid.h): the fastest float32 cell
// against the fastest cell within the stated accuracy budget, per model.

#include <gtest/gtest.h>

#include "report/precision_grid.h"

namespace tracebench {
namespace {

const std::vector<std::string> kAvx512Bf16 = {"avx2", "avx512f", "avx512_bf16", "avx512_vnni"};
const std::vector<std::string> kAvx2Only = {"avx2", "fma"};

ResultRow row(const std::string& model, const std::string& backend, double speedup,
              const std::string& ran = "fp32", double sqnr = std::nan("")) {
  ResultRow r;
  r.model = model;
  r.backend = backend;
  r.speedup = speedup;
  r.ran_precision = ran;
  r.sqnr_db = sqnr;
  return r;
}

// Rows of two models: on resnet, int8 is fastest but below 30 dB, so bf16
// stands in the budget's column; on bert, no reduced cell keeps the budget and
// the float32 cell is its own answer (gain 1.00x).
std::vector<ResultRow> two_models() {
  return {row("resnet", "eager", 1.0),
          row("resnet", "openvino", 1.7),
          row("resnet", "openvino_bf16", 3.3, "bf16", 41.2),
          row("resnet", "onnxruntime_int8", 7.5, "int8", 27.1),
          row("bert", "ofi", 1.4),
          row("bert", "openvino_int8", 4.0, "int8", 12.0)};
}

TEST(PrecisionGrid, FastestFloat32AgainstFastestWithinTheBudget) {
  const std::string grid =
      format_precision_grid(two_models(), default_precision_grid_budget(), kAvx512Bf16);
  EXPECT_NE(grid.find("within the accuracy budget sqnr=30"), std::string::npos) << grid;
  EXPECT_NE(grid.find("| resnet | openvino     |   1.700 | openvino_bf16         |   3.300 | "
                      "bf16 sqnr=41.2dB | 1.94x |"),
            std::string::npos)
      << grid;
  EXPECT_NE(grid.find("| bert   | ofi          |   1.400 | ofi                   |   1.400 | "
                      "fp32             | 1.00x |"),
            std::string::npos)
      << grid;
}

// A looser budget by measure (as --auto-tolerance gives it) lets int8 in.
TEST(PrecisionGrid, TheRunsBudgetByMeasureDecides) {
  const auto budget = precision_grid_budget("sqnr=25");
  const std::string grid = format_precision_grid(two_models(), budget, kAvx512Bf16);
  EXPECT_NE(grid.find("budget sqnr=25"), std::string::npos) << grid;
  EXPECT_NE(grid.find("onnxruntime_int8      |   7.500 | int8 sqnr=27.1dB | 4.41x"),
            std::string::npos)
      << grid;
}

// A budget by name (the default "exact", or "bf16") states nothing by
// measure: the grid keeps its default.
TEST(PrecisionGrid, ABudgetByNameLeavesTheDefault) {
  for (const char* tolerance : {"exact", "bf16", "", "garbled"}) {
    const auto budget = precision_grid_budget(tolerance);
    ASSERT_TRUE(budget.min_sqnr_db.has_value()) << tolerance;
    EXPECT_EQ(*budget.min_sqnr_db, 30.0) << tolerance;
    EXPECT_FALSE(budget.min_top1_percent.has_value()) << tolerance;
  }
}

// A top-1 bound with no top-1 figure (not a classifier, too few classes)
// is not kept: only float32 cells stand.
TEST(PrecisionGrid, AnUnmeasuredBoundIsNotKept) {
  const std::string grid =
      format_precision_grid(two_models(), precision_grid_budget("top1=99"), kAvx512Bf16);
  EXPECT_NE(grid.find("| resnet | openvino     |   1.700 | openvino              |   1.700 |"),
            std::string::npos)
      << grid;
}

TEST(PrecisionGrid, NoneWhenEveryRowRanFloat32) {
  EXPECT_EQ(format_precision_grid({row("resnet", "eager", 1.0), row("resnet", "ofi", 1.3)},
                                  default_precision_grid_budget(), kAvx512Bf16),
            "");
}

// Where bf16 is emulated and int8 keeps 7 bits, the run says why it shows no
// grid instead of ranking emulated cells.
TEST(PrecisionGrid, SaysWhyThereIsNoneOnACpuWithoutNativeBf16OrInt8) {
  const std::string text =
      format_precision_grid(two_models(), default_precision_grid_budget(), kAvx2Only);
  EXPECT_EQ(text.rfind("no precision grid: this CPU has neither", 0), 0u) << text;
  EXPECT_EQ(text.find("resnet"), std::string::npos) << text;
}

}  // namespace
}  // namespace tracebench
