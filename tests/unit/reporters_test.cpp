// The reporters a run writes through: what each does with begin, rows and end.

#include <gtest/gtest.h>

#include <sstream>

#include "report/reporters.h"
#include "sample_rows.h"

namespace tracebench {
namespace {

RunContext context_of(const std::string& build_type) {
  RunContext context;
  context.environment.build_type = build_type;
  context.backends = {"eager", "ts"};
  context.models = 1;
  return context;
}

std::string stderr_at_begin(const std::string& build_type) {
  std::ostringstream err;
  auto reporter = make_stderr_reporter(err, /*print_warnings=*/true);
  reporter->begin(context_of(build_type));
  reporter->end({});
  return err.str();
}

TEST(Reporters, AnUnoptimizedBuildWarnsAtEveryRun) {
  EXPECT_NE(stderr_at_begin("Debug").find("Debug build, not optimized"), std::string::npos);
  EXPECT_NE(stderr_at_begin("").find("unknown build"), std::string::npos);
  EXPECT_EQ(stderr_at_begin("Release"), "");
  EXPECT_EQ(stderr_at_begin("RelWithDebInfo"), "");
}

TEST(Reporters, ConsoleWritesLinesThenTheGrid) {
  std::ostringstream out;
  auto console = make_console_reporter(out, /*print_ci=*/false);
  console->begin(context_of("Release"));
  const ResultRow row = testing::sample_row();
  console->row(row);
  console->end({row});
  const std::string text = out.str();
  EXPECT_EQ(text.find("cpu  train LinearModel"), 0u) << text;
  EXPECT_NE(text.find("| Model"), std::string::npos) << text;
}

TEST(Reporters, StderrPrintsEachRowsWarningsOnce) {
  std::ostringstream err;
  auto reporter = make_stderr_reporter(err, /*print_warnings=*/true);
  reporter->begin(context_of("Release"));
  reporter->start_model(0, "LinearModel");
  ResultRow row = testing::sample_row();
  row.warnings = {std::string(kBaselineWarningMessagePrefix) + "noisy", "ts: noisy"};
  row.warning_codes = {"eager_high_cv", "high_cv"};
  reporter->row(row);
  reporter->row(row);  // a second backend: the baseline's warning is not repeated
  reporter->end({});
  const std::string text = err.str();
  EXPECT_EQ(text.find("eager baseline: noisy"), text.rfind("eager baseline: noisy")) << text;
  EXPECT_NE(text.find("LinearModel ts: noisy"), text.rfind("LinearModel ts: noisy")) << text;
}

}  // namespace
}  // namespace tracebench
