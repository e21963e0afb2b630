// A model's child process gets the flags that change how it measures and none
// of the report flags: those write files, and each child would write them too.

#include <gtest/gtest.h>

#include <algorithm>

#include "app/report_options.h"
#include "app/robustness_options.h"
#include "report/reporters.h"

namespace tracebench {
namespace {

std::vector<std::string> child_arguments_of(std::vector<std::string> args) {
  CLI::App app;
  RunOptions options;
  add_robustness_options(app, options);
  add_measurement_and_report_options(app, options);
  std::reverse(args.begin(), args.end());  // CLI11 parses a reversed vector
  app.parse(args);
  return child_arguments(app);
}

TEST(ChildArguments, ReportFlagsNeverReachAChild) {
  std::vector<std::string> args = {"--ci",      "--warnings", "--target-ci",      "0.1",
                                   "--timeout", "5",          "--backend-plugin", "p.so"};
  // Every report file format, so that a new one is covered the day it is added.
  for (const auto& format : report_file_formats()) {
    args.push_back(std::string("--") + format.flag);
    args.push_back(std::string("out.") + format.flag);
  }
  EXPECT_EQ(child_arguments_of(args),
            (std::vector<std::string>{"--backend-plugin=p.so", "--target-ci=0.1"}));
}

TEST(ChildArguments, ReportFilesAreRecordedByFlag) {
  CLI::App app;
  RunOptions options;
  add_measurement_and_report_options(app, options);
  app.parse(std::vector<std::string>{"rows.csv", "--output", "run.json", "--json"});
  EXPECT_EQ(report_file(options, kCsvReportFlag), "rows.csv");
  EXPECT_EQ(report_file(options, "json"), "run.json");
  EXPECT_EQ(report_file(options, "html"), "");
}

}  // namespace
}  // namespace tracebench
