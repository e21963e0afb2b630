#pragma once
// The reporters a run writes through (report/reporter.h): the console lines
// and grid, the progress line and warnings on stderr, and the reports written
// to files named by a flag (the CSV of --output, the JSON of --json).

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "report/csv.h"
#include "report/json.h"
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

/// When a run writes a report file. Every one is also written when the run
/// starts (empty), so that a bad path fails before any model runs.
enum class ReportFileTiming {
  kEachRow,    // appended a line per row, so a killed run keeps every row (the CSV)
  kEachModel,  // rewritten whole after each model (the JSON)
  kRunEnd,     // written whole when the run ends: its charts and grid need every row
};

/// A report written to the file a flag names: by a run (--json FILE) and by
/// `tracebench report results.json --json FILE`. The flag is registered with
/// the CLI from this table (settings/setting_fields.h) and never passed to a
/// model's child process.
struct ReportFileFormat {
  const char* flag;  // "json" for --json FILE
  const char* name;  // "JSON", as help texts name it
  const char* help;  // the run's flag's
  /// The whole report as this format's file holds it.
  std::string (*render)(const RunReport& report);
  ReportFileTiming timing;
  /// A format written a line per row (kEachRow): its first line, and each
  /// row's, for the run's mode (`accuracy`); null for the others.
  std::string (*header)(bool accuracy) = nullptr;
  std::string (*line)(const ResultRow& row, bool accuracy) = nullptr;
};
const std::vector<ReportFileFormat>& report_file_formats();

/// The reporter that writes `format` to `path`. Opens nothing yet.
std::unique_ptr<Reporter> make_report_file_reporter(const ReportFileFormat& format,
                                                    const std::string& path);

}  // namespace tracebench
