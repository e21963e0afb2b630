// The console grid's and the HTML summary's per-backend figures, from one
// definition (report/backend_summary.h).

#include "report/backend_summary.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tracebench {
namespace {

ResultRow row(const std::string& model, const std::string& backend, const std::string& status,
              double speedup) {
  ResultRow result;
  result.model = model;
  result.backend = backend;
  result.status = status;
  result.speedup = speedup;
  return result;
}

TEST(BackendSummary, EveryRowCountsAndOnlyPassesHaveSpeedups) {
  const std::vector<ResultRow> rows = {
      row("a", "ofi", "pass", 2.0),        row("b", "ofi", "pass", 0.5),
      row("c", "ofi", "fail_to_run", 9.0), row("a", "ts", "pass", 4.0),
      row("a", "ofi", "pass", 8.0),  // a second point of a sweep: a row of its own
  };
  const auto ofi = summarize_backend(rows, "ofi");
  EXPECT_EQ(ofi.rows, 4);
  EXPECT_EQ(ofi.passed, 3);
  EXPECT_NEAR(ofi.geomean_speedup, std::cbrt(2.0 * 0.5 * 8.0), 1e-12);
  EXPECT_NEAR(ofi.geomean_speedup_clamped, std::cbrt(2.0 * 1.0 * 8.0), 1e-12);
}

TEST(BackendSummary, ABackendWithNoPassHasNoGeomean) {
  const auto summary = summarize_backend({row("a", "xnnpack", "unsupported", 0)}, "xnnpack");
  EXPECT_EQ(summary.rows, 1);
  EXPECT_EQ(summary.passed, 0);
  EXPECT_TRUE(std::isnan(summary.geomean_speedup));
}

}  // namespace
}  // namespace tracebench
