// The reporters a run writes through: what each does with begin, rows and end.

#include <gtest/gtest.h>

#include <sstream>

#include "measure/system_checks.h"
#include "report/reporters.h"
#include "sample_rows.h"

namespace tracebench {
namespace {

// A context whose system checks found `build_type` and a load average of
// `load` (the other checks unknown: nothing else readable).
RunContext context_of(const std::string& build_type, const std::string& load = "0.01") {
  RunContext context;
  context.environment.build_type = build_type;
  SystemCheckInputs inputs;
  inputs.cpus = {0};
  inputs.build_type = build_type;
  context.environment.system_checks =
      check_system(inputs, [load](const std::string& path) -> std::optional<std::string> {
        if (path == "/proc/loadavg") return load + " 0 0 1/100 1";
        return std::nullopt;
      });
  context.backends = {"eager", "ts"};
  context.models = 1;
  return context;
}

std::string stderr_at_begin(const RunContext& context, bool print_warnings = true) {
  std::ostringstream err;
  auto reporter = make_stderr_reporter(err, print_warnings);
  reporter->begin(context);
  reporter->end({});
  return err.str();
}

TEST(Reporters, AnUnoptimizedBuildWarnsAtEveryRun) {
  EXPECT_NE(stderr_at_begin(context_of("Debug"), false).find("Debug build, not optimized"),
            std::string::npos);
  EXPECT_NE(stderr_at_begin(context_of("")).find("unknown build"), std::string::npos);
  EXPECT_EQ(stderr_at_begin(context_of("Release")), "");
  EXPECT_EQ(stderr_at_begin(context_of("RelWithDebInfo")), "");
}

// The machine's state is said where warnings are shown (--warnings, a terminal).
TEST(Reporters, SystemCheckWarningsWhereWarningsAreShown) {
  const auto busy = context_of("Release", "3.50");
  EXPECT_EQ(stderr_at_begin(busy, false), "");
  EXPECT_NE(stderr_at_begin(busy, true).find("tracebench: warning: load average 3.50"),
            std::string::npos);
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
  // sample_row: 2 MFLOP in 1 ms is 2 GFLOP/s, of a 100 GFLOP/s peak.
  EXPECT_NE(text.find("peak share (GFLOP/s over this machine's probed peak"), std::string::npos)
      << text;
  EXPECT_NE(text.find(" 0.02 |\n"), std::string::npos) << text;
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
