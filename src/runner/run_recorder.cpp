#include "runner/run_recorder.h"

#include "runner/row_statistics.h"
#include "runner/status_rows.h"

namespace tracebench {

nlohmann::json config_to_json(const RunOptions& options) {
  return {{"mode", mode_label(options.mode)},
          {"only", options.only},
          {"backends", options.backends},
          {"filters", options.filters},
          {"excludes", options.excludes},
          {"batch_size", options.batch_size ? nlohmann::json(*options.batch_size) : nullptr},
          {"input_shapes", options.input_shapes},
          {"repeat", options.repeat},
          {"warmup", options.warmup},
          {"iterations_per_run", options.iterations_per_run},
          {"randomize_input", options.randomize_input},
          {"threads", options.threads ? nlohmann::json(*options.threads) : nullptr},
          {"device", options.device},
          {"seed", options.seed},
          {"target_ci", options.target_ci},
          {"max_time_s", options.max_time_s},
          {"total_partitions", options.total_partitions},
          {"partition_id", options.partition_id}};
}

RunRecorder::RunRecorder(const RunOptions& options, size_t models, std::ostream& err)
    : options_(options),
      err_(err),
      progress_(err, models, ProgressLine::stderr_is_terminal()) {
  report_.environment = collect_environment();
  report_.config = config_to_json(options);
  // An empty but valid report from the start: a bad path fails before any work.
  if (!options_.json_output.empty()) write_report_atomically(options_.json_output, report_);
}

void RunRecorder::start_model(size_t index, const std::string& model) {
  std::string backends;
  for (const auto& backend : options_.backends) backends += (backends.empty() ? "" : ",") + backend;
  progress_.start(index, model, backends);
  eager_warned_ = false;
}

void RunRecorder::add(const ResultRow& row) {
  progress_.clear();
  const bool show = options_.print_warnings || ProgressLine::stderr_is_terminal();
  bool eager_now = false;
  for (const auto& warning : show ? row.warnings : std::vector<std::string>{}) {
    // The eager baseline's warnings are the same on every row of a model: print them once.
    const bool from_baseline = warning.rfind(kBaselineWarningMessagePrefix, 0) == 0;
    if (from_baseline && eager_warned_) continue;
    eager_now = eager_now || from_baseline;
    err_ << "tracebench: warning: " << row.model << " " << warning << std::endl;
  }
  eager_warned_ = eager_warned_ || eager_now;
  report_.rows.push_back(row);
}

void RunRecorder::finish_model() {
  if (!options_.json_output.empty()) write_report_atomically(options_.json_output, report_);
}

}  // namespace tracebench
