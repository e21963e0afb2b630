#include "orchestration/suite.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>

#include "artefacts/save_optimized.h"
#include "execution/execution_settings.h"
#include "execution/run_context.h"
#include "execution/status_rows.h"
#include "measure/system_checks.h"
#include "orchestration/isolation.h"
#include "orchestration/partition.h"
#include "orchestration/resume.h"
#include "orchestration/validate_options.h"
#include "performance/compute_limit.h"
#include "report/reporters.h"
#include "screening/model_selection.h"
#include "settings/model_run.h"
#include "settings/sweep.h"
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
    if (!path.empty()) reporters.push_back(make_report_file_reporter(format, path));
  }
  return reporters;
}

namespace {

// Half a core used by other processes while a model ran (the others column of
// bench/vs_python.py) is enough to move a 2-thread median.
constexpr double kBusyMachineCores = 0.5;

// A model's rows. A model the user got wrong costs its rows, not the rest of
// the suite (as in an isolated child): model_fail_to_load rows, which the
// reports get as any others; `error` keeps the first such error.
std::vector<ResultRow> run_model_reporting_errors(const ModelSpec& spec, const ModelRun& run,
                                                  std::ostream& err,
                                                  std::optional<std::string>& error) {
  try {
    return run_model(spec, run, err);
  } catch (const UsageError& usage_error) {
    if (!error) error = usage_error.what();
    return status_rows(spec.name, run, status::kModelFailToLoad, usage_error.what());
  }
}

// Before any model runs, so that a path that cannot be written is the run's
// one-line error rather than a warning on every row.
void make_directory(const std::string& flag, const std::string& dir) {
  if (dir.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error || !std::filesystem::is_directory(dir)) {
    throw UsageError(flag + " " + dir + ": cannot make the directory (" +
                     (error ? error.message() : "a file of that name exists") +
                     "); choose a writable directory");
  }
}

}  // namespace

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
  make_directory("--profile", options.profile_dir);
  make_directory("--save-outputs", options.save_outputs_dir);
  // --resume: rows already in the CSV are kept, not rerun (orchestration/resume.h).
  ResumeState resume =
      options.resume ? prepare_resume(report_file(options, kCsvReportFlag), options.accuracy, err)
                     : ResumeState{};
  const auto points = sweep_points(options);
  const RunContext context = run_context(options, points, specs.size());
  for (const auto& reporter : reporters) reporter->begin(context);

  std::vector<ResultRow> all_rows = resume.rows;
  std::optional<std::string> load_error;
  // A run of one model that failed to load: its error is the run's.
  const auto alone_failed = [&] { return specs.size() == 1 && load_error.has_value(); };
  size_t started = 0;
  for (const auto& point : points) {
    apply_process_settings(options, point);
    const std::string label = sweep_point_label(point, options);
    const auto& all_peaks = context.environment.peak_gflops_by_threads;
    const auto peaks = all_peaks.find(point.threads);
    for (const auto& spec : specs) {
      ModelRun run = model_run(options, point);
      run.backends = resume.missing_backends(spec.name, point.batch_size, point.threads,
                                             point.allocator, options.backends);
      if (run.backends.empty()) continue;
      // --cooldown: the machine rests between models (its clocks and caches settle).
      if (started > 0 && options.cooldown_s > 0) {
        err << "--cooldown: resting " << options.cooldown_s << " s before " << spec.name << "\n"
            << std::flush;
        std::this_thread::sleep_for(std::chrono::duration<double>(options.cooldown_s));
      }
      for (const auto& reporter : reporters) {
        reporter->start_model(started, label.empty() ? spec.name : spec.name + " (" + label + ")");
      }
      ++started;
      const auto wall_start = std::chrono::steady_clock::now();
      const CpuTimes cpu_start = cpu_times_now();
      auto rows = run_model_reporting_errors(spec, run, err, load_error);
      const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - wall_start;
      const double others = other_busy_cores(cpu_start, cpu_times_now(), wall.count());
      for (auto& row : rows) {
        if (others >= kBusyMachineCores) {
          row.add_warning("busy_machine", "other processes kept " + printf_string("%.2f", others) +
                                              " cores busy while this model ran: its timings "
                                              "shared the machine");
        }
        if (row.allocator != point.allocator) {
          row.add_warning("malloc_not_applied", "--malloc " + point.allocator +
                                                    " was asked for, but the model ran with " +
                                                    row.allocator);
        }
        if (peaks != all_peaks.end()) set_peak_gflops(row, peaks->second);
        for (const auto& reporter : reporters) {
          if (!alone_failed() || reporter->writes_file()) reporter->row(row);
        }
        all_rows.push_back(std::move(row));
      }
      for (const auto& reporter : reporters) {
        if (!alone_failed() || reporter->writes_file()) reporter->end_model();
      }
    }
  }
  for (const auto& reporter : reporters) {
    if (!alone_failed() || reporter->writes_file()) reporter->end(all_rows);
  }
  // The report files have its rows; on the console, the run's one line.
  if (alone_failed()) throw UsageError(*load_error);
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
