#pragma once
// Where a run's results go. run_suite tells every reporter what the run is
// (begin), hands it each row as it is measured, says when a model is done, and
// ends the run. The console, the progress line, the CSV and the JSON report are
// reporters (report/reporters.h); a new report format is one more.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "measure/environment.h"
#include "report/result_row.h"

namespace tracebench {

/// What a run is, fixed before its first row: the effective settings after
/// validation (the JSON report's "config", which `compare` checks) and the
/// environment (build type and CPU flags included).
struct RunContext {
  nlohmann::json settings = nlohmann::json::object();
  Environment environment;
  std::vector<std::string> backends;
  size_t models = 0;  // the models this run (or partition) covers
  bool accuracy = false;
  bool resume = false;  // rows are appended to what an earlier run wrote
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void begin(const RunContext& context) = 0;
  /// Model `index` (0-based, of context.models) starts.
  virtual void start_model(size_t index, const std::string& model) {
    (void)index;
    (void)model;
  }
  virtual void row(const ResultRow& row) = 0;
  virtual void end_model() {}
  /// `rows`: every row of the run, earlier ones kept by --resume included.
  virtual void end(const std::vector<ResultRow>& rows) { (void)rows; }
  /// Whether this reporter writes a report file (--output, --json, ...).
  /// A run of one model that fails to load gives such files its
  /// model_fail_to_load rows, as a suite does, while the console shows the
  /// run's one-line error alone.
  virtual bool writes_file() const { return false; }
};

}  // namespace tracebench
