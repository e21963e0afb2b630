#include "runner/status_rows.h"

namespace tracebench {

const char* mode_label(Mode mode) { return mode == Mode::kTraining ? "train" : "eval"; }

ResultRow status_row(const std::string& model, const std::string& backend, const RunOptions& options,
                     const char* status, const std::string& error) {
  ResultRow row;
  row.model = model;
  row.backend = backend;
  row.mode = mode_label(options.mode);
  row.iterations_per_run = options.iterations_per_run;
  row.status = status;
  row.error = error.substr(0, error.find('\n'));
  return row;
}

std::vector<ResultRow> status_rows(const std::string& model, const RunOptions& options,
                                   const char* status, const std::string& error) {
  std::vector<ResultRow> rows;
  for (const auto& backend : options.backends) {
    rows.push_back(status_row(model, backend, options, status, error));
  }
  return rows;
}

}  // namespace tracebench
