#include "report/reporters.h"

#include "report/console.h"
#include "report/csv.h"
#include "report/html.h"
#include "report/json.h"
#include "report/markdown.h"
#include "report/precision_grid.h"
#include "report/progress.h"
#include "report/report_file.h"
#include "report/row_figures.h"
#include "report/sweep_groups.h"
#include "util/text.h"

namespace tracebench {

namespace {

class ConsoleReporter : public Reporter {
 public:
  ConsoleReporter(std::ostream& out, bool print_ci, bool print_percentiles)
      : out_(out), print_ci_(print_ci), print_percentiles_(print_percentiles) {}

  void begin(const RunContext& context) override {
    accuracy_ = context.accuracy;
    settings_ = context.settings;
    backends_ = context.backends;
    backend_width_ = backend_column_width(backends_);
    cpu_flags_ = context.environment.cpu_flags;
  }

  void row(const ResultRow& row) override {
    const bool with_ci = backend_width_ > 0 || print_ci_;
    const std::string point = row_sweep_label(row, settings_);
    if (accuracy_) {
      out_ << format_accuracy_line(row, backend_width_, point) << std::endl;
      return;
    }
    out_ << format_result_line(row, backend_width_, with_ci, point);
    if (print_percentiles_ && row.passed()) out_ << "  " << format_latency_percentiles(row);
    if (row.passed() && !row.shape_latency_ms.empty()) {
      out_ << "  " << format_shape_latencies(row);
    }
    out_ << std::endl;
  }

  void end(const std::vector<ResultRow>& rows) override {
    if (accuracy_) {
      out_ << format_pass_rate(rows) << std::endl;
    } else if (backend_width_ > 0) {
      out_ << "\n" << format_grid_table(rows, backends_);
      const auto tolerance = settings_.find("auto_tolerance");
      const bool stated = tolerance != settings_.end() && tolerance->is_string();
      out_ << format_precision_grid(
          rows, precision_grid_budget(stated ? tolerance->get<std::string>() : ""), cpu_flags_);
    }
  }

 private:
  std::ostream& out_;
  bool print_ci_;
  bool print_percentiles_;
  bool accuracy_ = false;
  nlohmann::json settings_;
  std::vector<std::string> backends_;
  std::vector<std::string> cpu_flags_;
  size_t backend_width_ = 0;
};

class StderrReporter : public Reporter {
 public:
  StderrReporter(std::ostream& err, bool print_warnings)
      : err_(err), print_warnings_(print_warnings || ProgressLine::stderr_is_terminal()) {}

  void begin(const RunContext& context) override {
    // A build that is not optimized is always said; the machine's state
    // (governor, turbo, load, ...) where warnings are shown.
    for (const auto& check : context.environment.system_checks) {
      if (check.state != "warning") continue;
      if (check.name == "build_type" || print_warnings_) {
        err_ << "tracebench: warning: " << check.detail << std::endl;
      }
    }
    backends_ = join(context.backends, ",");
    progress_ =
        std::make_unique<ProgressLine>(err_, context.models, ProgressLine::stderr_is_terminal());
  }

  void start_model(size_t index, const std::string& model) override {
    progress_->start(index, model, backends_);
    baseline_warned_ = false;
    output_warned_ = false;
  }

  void row(const ResultRow& row) override {
    progress_->clear();
    // A passing row's error column holds what eager's output looked like (NaN
    // or Inf in it): the same for every row of the model, and always said.
    if (row.passed() && !row.error.empty() && !output_warned_) {
      err_ << "tracebench: " << row.model << ": " << row.error << std::endl;
      output_warned_ = true;
    }
    bool baseline_now = false;
    for (const auto& warning : print_warnings_ ? row.warnings : std::vector<std::string>{}) {
      // The eager baseline's warnings are the same on every row of a model: print them once.
      const bool from_baseline = warning.rfind(kBaselineWarningMessagePrefix, 0) == 0;
      if (from_baseline && baseline_warned_) continue;
      baseline_now = baseline_now || from_baseline;
      err_ << "tracebench: warning: " << row.model << " " << warning << std::endl;
    }
    baseline_warned_ = baseline_warned_ || baseline_now;
  }

  void end(const std::vector<ResultRow>&) override { progress_.reset(); }

 private:
  std::ostream& err_;
  bool print_warnings_;
  std::string backends_;
  std::unique_ptr<ProgressLine> progress_;
  bool baseline_warned_ = false;
  bool output_warned_ = false;
};

// A format written a line per row (the CSV): each row's line is appended as
// the row arrives, so that a killed run keeps every finished row.
class LineReportReporter : public Reporter {
 public:
  LineReportReporter(const ReportFileFormat& format, std::string path)
      : format_(format), path_(std::move(path)) {}
  void begin(const RunContext& context) override {
    accuracy_ = context.accuracy;
    // --resume appends to the rows kept from the earlier run.
    file_ = std::make_unique<LineReportFile>(path_, format_.flag, format_.header(accuracy_),
                                             context.resume);
  }
  void row(const ResultRow& row) override { file_->append_line(format_.line(row, accuracy_)); }
  bool writes_file() const override { return true; }

 private:
  const ReportFileFormat& format_;
  std::string path_;
  bool accuracy_ = false;
  std::unique_ptr<LineReportFile> file_;
};

// The formats written whole (environment, settings, every row): the reporter
// keeps the report and writes it when the format's timing says.
class WholeReportReporter : public Reporter {
 public:
  WholeReportReporter(const ReportFileFormat& format, std::string path)
      : format_(format), path_(std::move(path)) {}
  void begin(const RunContext& context) override {
    report_.environment = context.environment;
    report_.config = context.settings;
    write();
  }
  void row(const ResultRow& row) override { report_.rows.push_back(row); }
  void end_model() override {
    if (format_.timing == ReportFileTiming::kEachModel) write();
  }
  void end(const std::vector<ResultRow>&) override {
    if (format_.timing == ReportFileTiming::kRunEnd) write();
  }
  bool writes_file() const override { return true; }

 private:
  void write() const { write_report_file(path_, format_.flag, format_.render(report_)); }

  const ReportFileFormat& format_;
  std::string path_;
  RunReport report_;
};

}  // namespace

std::unique_ptr<Reporter> make_console_reporter(std::ostream& out, bool print_ci,
                                                bool print_percentiles) {
  return std::make_unique<ConsoleReporter>(out, print_ci, print_percentiles);
}

std::unique_ptr<Reporter> make_stderr_reporter(std::ostream& err, bool print_warnings) {
  return std::make_unique<StderrReporter>(err, print_warnings);
}

const std::vector<ReportFileFormat>& report_file_formats() {
  static const std::vector<ReportFileFormat> formats = {
      {kCsvReportFlag, "CSV",
       "Write the rows to this CSV file, one line as each is measured (default: none)", render_csv,
       ReportFileTiming::kEachRow, csv_header, csv_line},
      {"json", "JSON",
       "Write a JSON report (raw samples, environment, settings) to this file, rewritten "
       "atomically after each model (default: none)",
       render_json, ReportFileTiming::kEachModel},
      {"html", "HTML",
       "Write the HTML report (summary, charts, every row) to this file when the run ends "
       "(default: none; `tracebench report` draws one from a JSON report)",
       render_html, ReportFileTiming::kRunEnd},
      {"markdown", "markdown",
       "Write the grid and the rows as GitHub-flavoured markdown tables to this file when the "
       "run ends (default: none; `tracebench report` writes one from a JSON report)",
       render_markdown, ReportFileTiming::kRunEnd},
  };
  return formats;
}

std::unique_ptr<Reporter> make_report_file_reporter(const ReportFileFormat& format,
                                                    const std::string& path) {
  // A line-per-row format (the CSV) is appended to a line at a time, and
  // --resume appends to the rows an earlier run left; the others are written whole.
  if (format.timing == ReportFileTiming::kEachRow) {
    return std::make_unique<LineReportReporter>(format, path);
  }
  return std::make_unique<WholeReportReporter>(format, path);
}

}  // namespace tracebench
