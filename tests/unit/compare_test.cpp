// compare_reports over synthetic runs, merge_reports and the HTML page.

#include <gtest/gtest.h>

#include <cmath>

#include "report/compare.h"
#include "report/html.h"
#include "report/merge.h"
#include "sample_rows.h"
#include "tracebench/error.h"

namespace tracebench {
namespace {

ResultRow row_with(const std::string& model, double latency_ms, double eager_ms, double jitter) {
  return testing::timed_row(model, "ts", latency_ms, eager_ms, /*samples=*/20, jitter / 2);
}

RunReport run_of(std::vector<ResultRow> rows) {
  RunReport report;
  report.rows = std::move(rows);
  return report;
}

TEST(Compare, SignificantSlowdownBeyondThresholdIsARegression) {
  const auto base = run_of({row_with("a", 1.0, 2.0, 0.01), row_with("b", 1.0, 2.0, 0.01)});
  const auto next = run_of({row_with("a", 1.2, 2.0, 0.01), row_with("b", 1.01, 2.0, 0.01)});
  const auto c = compare_reports(base, next, 0.05);
  ASSERT_EQ(c.changes.size(), 2u);
  EXPECT_EQ(c.changes[0].verdict, "regressed");
  EXPECT_NEAR(c.changes[0].latency_change, 0.2, 1e-12);
  EXPECT_NEAR(c.changes[0].speedup_ratio, 1 / 1.2, 1e-12);
  EXPECT_LT(c.changes[0].p_value, 0.05);
  EXPECT_EQ(c.changes[1].verdict, "unchanged");  // +1%: below the threshold
  EXPECT_EQ(c.regressions, 1);
  EXPECT_NEAR(c.geomean_latency_ratio, std::sqrt(1.2 * 1.01), 1e-12);
  const auto text = format_comparison(c);
  EXPECT_NE(text.find("+20.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("1 regression(s)"), std::string::npos) << text;
}

TEST(Compare, ImprovementsMissingAndNewlyFailingRows) {
  auto broken = row_with("b", 1.0, 2.0, 0.01);
  broken.status = status::kFailToRun;
  const auto c = compare_reports(
      run_of({row_with("a", 1.0, 2.0, 0.01), row_with("b", 1, 2, 0.01)}),
      run_of({row_with("a", 0.5, 2.0, 0.01), broken, row_with("c", 1, 1, 0.01)}), 0.05);
  ASSERT_EQ(c.changes.size(), 3u);
  EXPECT_EQ(c.changes[0].verdict, "improved");
  EXPECT_EQ(c.changes[1].verdict, "newly_failing");
  EXPECT_EQ(c.changes[2].verdict, "only_new");
  EXPECT_EQ(c.regressions, 1);
  EXPECT_EQ(c.improvements, 1);
}

// A row below float32 shows its SQNR in both runs beside its speed; a run
// of float32 rows only has no such column.
TEST(Compare, RowsBelowFloat32ShowTheirSqnrInBothRuns) {
  auto base = row_with("a", 1.0, 2.0, 0.01);
  auto next = row_with("a", 0.5, 2.0, 0.01);
  base.sqnr_db = 38.25;
  next.sqnr_db = 21.5;
  const auto c = compare_reports(run_of({base}), run_of({next}), 0.05);
  ASSERT_EQ(c.changes.size(), 1u);
  EXPECT_DOUBLE_EQ(c.changes[0].base_sqnr_db, 38.25);
  EXPECT_DOUBLE_EQ(c.changes[0].new_sqnr_db, 21.5);
  const auto text = format_comparison(c);
  EXPECT_NE(text.find("sqnr dB base->new"), std::string::npos) << text;
  EXPECT_NE(text.find("38.2 -> 21.5"), std::string::npos) << text;
  const auto float32 = row_with("a", 1.0, 2.0, 0.01);
  EXPECT_EQ(
      format_comparison(compare_reports(run_of({float32}), run_of({float32}), 0.05)).find("sqnr"),
      std::string::npos);
}

TEST(Compare, IdenticalRunsHaveNoChange) {
  const auto run = run_of({row_with("a", 1.0, 2.0, 0.05)});
  const auto c = compare_reports(run, run, 0.05);
  EXPECT_EQ(c.changes[0].verdict, "unchanged");
  EXPECT_EQ(c.regressions, 0);
  EXPECT_DOUBLE_EQ(c.geomean_speedup_ratio, 1.0);
}

TEST(Compare, SweepRowsAreMatchedAndNamedByTheirPoint) {
  std::vector<ResultRow> rows;
  for (int64_t batch : {1, 8}) {
    rows.push_back(row_with("a", 1.0 * batch, 2.0 * batch, 0.01));
    rows.back().batch_size = batch;
  }
  auto slower = rows;
  slower[1] = row_with("a", 12.0, 16.0, 0.01);  // batch 8 slower by half
  slower[1].batch_size = 8;
  const auto c = compare_reports(run_of(rows), run_of(slower), 0.05);
  ASSERT_EQ(c.changes.size(), 2u);
  EXPECT_EQ(c.changes[0].model, "a (batch 1)");
  EXPECT_EQ(c.changes[0].verdict, "unchanged");
  EXPECT_EQ(c.changes[1].model, "a (batch 8)");
  EXPECT_EQ(c.changes[1].verdict, "regressed");
}

TEST(Merge, ConcatenatesDisjointReportsAndRejectsOverlap) {
  const auto merged = merge_reports({{"p0.json", run_of({row_with("a", 1, 2, 0)})},
                                     {"p1.json", run_of({row_with("b", 1, 2, 0)})}});
  ASSERT_EQ(merged.rows.size(), 2u);
  EXPECT_EQ(merged.config["merged_from"], nlohmann::json({"p0.json", "p1.json"}));
  EXPECT_THROW(merge_reports({{"x.json", run_of({row_with("a", 1, 2, 0)})},
                              {"y.json", run_of({row_with("a", 1, 2, 0)})}}),
               UsageError);
  EXPECT_THROW(merge_reports({}), UsageError);
}

TEST(Html, SelfContainedPageWithChartsAndEscaping) {
  auto row = row_with("<script>", 1.0, 1.5, 0.02);
  row.ci_low = 1.4;
  row.ci_high = 1.6;
  auto failed = row_with("b", 1, 1, 0);
  failed.status = status::kFailToRun;
  RunReport report = run_of({row, failed});
  report.environment.cpu_model = "Test CPU";
  const auto html = render_html(report);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<svg class=\"speedup-chart\""), std::string::npos);
  EXPECT_NE(html.find("class=\"whisker\""), std::string::npos);
  EXPECT_NE(html.find("<svg class=\"strip\""), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // no fetches
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_NE(html.find("Test CPU"), std::string::npos);
  EXPECT_NE(html.find("clamped to 1.0"), std::string::npos);
}

}  // namespace
}  // namespace tracebench
