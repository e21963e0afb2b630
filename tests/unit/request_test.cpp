// The request (app/request.h) is what the flags asked for, completed once and
// never edited: a run of a sweep with --profile resolves each model's point,
// backends and trace folder into its ModelRun, and leaves the request as the
// CLI completed it.

#include "app/request.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <sstream>

#include "orchestration/suite.h"
#include "settings/setting_fields.h"
#include "test_paths.h"

namespace tracebench {
namespace {

TEST(Request, ARunLeavesTheRequestAsTheCliCompletedIt) {
  const std::string traces = testing::process_temp_path("traces").string();
  std::vector<std::string> args = {"--performance",
                                   "--only",
                                   "small_convnet",
                                   "--backend",
                                   "eager,ts",
                                   "--threads",
                                   "1,2",
                                   "-n",
                                   "2",
                                   "--warmup",
                                   "1",
                                   "--profile",
                                   traces,
                                   "--no-isolation"};
  std::reverse(args.begin(), args.end());  // CLI11 parses a reversed vector
  CLI::App app;
  RunOptions parsed;
  declare_settings(app, parsed);
  app.parse(args);
  std::ostringstream said;
  const RunOptions request = complete_request(app, parsed, said);
  const RunOptions before = request;

  const auto rows = run_suite(request, {}, said);
  ASSERT_EQ(rows.size(), 4u);  // two backends at each of two points
  EXPECT_EQ(rows[0].threads, 1);
  EXPECT_EQ(rows[3].threads, 2);
  EXPECT_NE(rows[3].profile_trace.find("2_threads"), std::string::npos) << rows[3].profile_trace;

  EXPECT_EQ(recorded_settings(request), recorded_settings(before));
  EXPECT_EQ(request.backends, before.backends);
  EXPECT_EQ(request.auto_skip, before.auto_skip);
  EXPECT_EQ(request.profile_dir, traces);
  EXPECT_EQ(request.child_args, before.child_args);
  EXPECT_EQ(request.requested, before.requested);
}

}  // namespace
}  // namespace tracebench
