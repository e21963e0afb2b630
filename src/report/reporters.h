#pragma once
// The reporters a run writes through (report/reporter.h): the console lines
// and grid, the progress line and warnings on stderr, and the reports written
// to files named by a flag (the CSV of --output, the JSON of --json).

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "report/reporter.h"

namespace tracebench {

/// The dynamo runner's line per row, then the grid (several backends) or the
/// accuracy pass rate. `print_ci` (--ci) shows the CI with one backend too.
/// `print_percentiles` (--percentiles) appends latency percentiles and throughput.
std::unique_ptr<Reporter> make_console_reporter(std::ostream& out, bool print_ci,
                                                bool print_percentiles = false);

/// On `err`: warnings about the run itself (a Debug build) at the start, the
/// progress line on a terminal, and each row's noise warnings when `err` is a
/// terminal or `print_warnings` (--warnings).
std::unique_ptr<Reporter> make_stderr_reporter(std::ostream& err, bool print_warnings);

/// A report written to the file a flag names. The flag is registered with the
/// CLI from this table and never passed to a model's child process.
struct ReportFileFormat {
  const char* flag;  // "json" for --json FILE
  const char* help;
  /// Opens nothing yet: begin() creates the file, so a bad path fails before
  /// any model runs.
  std::unique_ptr<Reporter> (*make)(const std::string& path);
};
const std::vector<ReportFileFormat>& report_file_formats();

/// The flag of the CSV report (--output), which --resume reads back.
inline constexpr const char* kCsvReportFlag = "output";

}  // namespace tracebench
