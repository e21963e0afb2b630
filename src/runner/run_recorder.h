#pragma once
// What the run loop hands each finished row to besides the console and CSV:
// noise warnings on stderr, the JSON report (rewritten atomically after every
// model, so a killed run keeps its completed models) and the progress line.

#include <memory>
#include <ostream>
#include <string>

#include "report/json.h"
#include "report/progress.h"
#include "runner/run_options.h"

namespace tracebench {

/// The effective options, as recorded in the JSON report's "config".
nlohmann::json config_to_json(const RunOptions& options);

class RunRecorder {
 public:
  /// Collects the environment now. Throws UsageError if --json is not writable.
  RunRecorder(const RunOptions& options, size_t models, std::ostream& err);

  void start_model(size_t index, const std::string& model);
  /// Call before printing the row: clears the progress line.
  void add(const ResultRow& row);
  void finish_model();

 private:
  const RunOptions& options_;
  std::ostream& err_;
  RunReport report_;
  ProgressLine progress_;
  bool eager_warned_ = false;
};

}  // namespace tracebench
