#include "execution/status_rows.h"

#include "util/text.h"

namespace tracebench {

void record_compiled_model(ResultRow& row, const CompiledModel& compiled) {
  row.counters = compiled.counters();
  row.chosen = compiled.chosen();
  row.runtime = compiled.runtime();
  row.runtime_settings.clear();
  for (const auto& [key, value] : compiled.runtime_settings()) {
    row.runtime_settings += (row.runtime_settings.empty() ? "" : "; ") + key + "=" + value;
  }
  for (const auto& warning : compiled.warnings()) {
    row.add_warning(warning.code, row.backend + ": " + warning.message);
  }
}

ResultRow row_for(const std::string& model, const std::string& backend, const ModelRun& run) {
  const RunOptions& options = run.request;
  ResultRow row;
  row.model = model;
  row.backend = backend;
  row.mode = mode_label(options.mode);
  row.precision = precision_label(options.precision);
  row.iterations_per_run = options.iterations_per_run;
  row.streams = options.streams;
  row.threads = run.point.threads;
  return row;
}

ResultRow status_row(const std::string& model, const std::string& backend, const ModelRun& run,
                     const char* status, const std::string& error) {
  ResultRow row = row_for(model, backend, run);
  // What was asked for: no model was loaded to say its own batch size.
  row.batch_size = run.point.batch_size.value_or(0);
  row.allocator = run.point.allocator;
  row.status = status;
  row.error = first_line(error);
  return row;
}

std::vector<ResultRow> status_rows(const std::string& model, const ModelRun& run,
                                   const char* status, const std::string& error) {
  std::vector<ResultRow> rows;
  for (const auto& backend : run.backends) {
    rows.push_back(status_row(model, backend, run, status, error));
  }
  return rows;
}

}  // namespace tracebench
