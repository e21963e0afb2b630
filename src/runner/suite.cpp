#include "runner/suite.h"

#include <algorithm>
#include <memory>

#include "report/reporters.h"
#include "runner/compute_limit.h"
#include "runner/execution_settings.h"
#include "runner/isolation.h"
#include "runner/model_selection.h"
#include "runner/partition.h"
#include "runner/resume.h"
#include "runner/run_context.h"
#include "runner/save_optimized.h"
#include "runner/status_rows.h"
#include "tracebench/error.h"
#include "util/text.h"

namespace tracebench {

std::vector<std::unique_ptr<Reporter>> make_reporters(const RunOptions& options, std::ostream& out,
                                                      std::ostream& err) {
  std::vector<std::unique_ptr<Reporter>> reporters;
  // First, so that the progress line is cleared before the console prints a row.
  reporters.push_back(make_stderr_reporter(err, options.print_warnings));
  reporters.push_back(make_console_reporter(out, options.print_ci, options.percentiles));
  for (const auto& format : report_file_formats()) {
    const std::string& path = report_file(options, format.flag);
    if (!path.empty()) reporters.push_back(format.make(path));
  }
  return reporters;
}

std::vector<ResultRow> run_suite(const RunOptions& options,
                                 const std::vector<std::unique_ptr<Reporter>>& reporters,
                                 std::ostream& err) {
  validate(options);
  const auto specs =
      partition_models(select_models(options), options.total_partitions, options.partition_id);
  if (names_one_saved_module(options.save_optimized) && specs.size() > 1) {
    throw UsageError("--save-optimized " + options.save_optimized + " names one file, but " +
                     std::to_string(specs.size()) +
                     " models are selected; give a directory to save one file per model");
  }
  apply_process_settings(options);
  // --resume: rows already in the CSV are kept, not rerun (runner/resume.h).
  ResumeState resume =
      options.resume ? prepare_resume(report_file(options, kCsvReportFlag), options.accuracy, err)
                     : ResumeState{};
  const RunContext context = run_context(options, specs.size());
  for (const auto& reporter : reporters) reporter->begin(context);

  std::vector<ResultRow> all_rows = resume.rows;
  for (const auto& spec : specs) {
    RunOptions todo = options;
    todo.backends = resume.missing_backends(spec.name, options.backends);
    if (todo.backends.empty()) continue;
    for (const auto& reporter : reporters) reporter->start_model(&spec - specs.data(), spec.name);
    std::vector<ResultRow> rows;
    try {
      rows = run_model(spec, todo, options.isolate, err);
    } catch (const UsageError& error) {
      // One model the user got wrong costs its rows, not the rest of the suite
      // (as in an isolated child). Alone, it is the run's one-line error.
      if (specs.size() == 1) throw;
      rows = status_rows(spec.name, todo, status::kModelFailToLoad, error.what());
    }
    for (auto& row : rows) {
      set_peak_gflops(row, context.environment.peak_gflops);
      for (const auto& reporter : reporters) reporter->row(row);
      all_rows.push_back(std::move(row));
    }
    for (const auto& reporter : reporters) reporter->end_model();
  }
  for (const auto& reporter : reporters) reporter->end(all_rows);
  return all_rows;
}

int exit_code_of(const std::vector<ResultRow>& rows, const RunOptions& options, std::ostream& err) {
  std::vector<std::string> failed;
  for (const auto& row : rows) {
    if (row.status != status::kModelFailToLoad) continue;
    if (std::find(failed.begin(), failed.end(), row.model) == failed.end()) {
      failed.push_back(row.model);
    }
  }
  if (failed.empty()) return 0;
  const std::string names = join(failed, ", ");
  err << "tracebench: error: " << failed.size() << " model(s) failed to load (" << names
      << "); fix them as their rows say, then "
      << (report_file(options, kCsvReportFlag).empty() ? "rerun them"
                                                       : "rerun with --resume to run only them")
      << std::endl;
  return 2;
}

}  // namespace tracebench
