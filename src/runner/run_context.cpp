#include "runner/run_context.h"

#include "measure/compute_peak.h"
#include "runner/status_rows.h"

namespace tracebench {

nlohmann::json settings_to_json(const RunOptions& options) {
  using nlohmann::json;
  return {{"mode", mode_label(options.mode)},
          {"measure", options.accuracy ? "accuracy" : "performance"},
          {"precision", precision_label(options.precision)},
          {"optimizer", options.mode == Mode::kTraining ? json(options.optimizer) : nullptr},
          {"auto_tolerance", numerics_label(options.auto_tolerance)},
          {"weights", options.weights},
          {"only", options.only},
          {"backends", options.backends},
          {"filters", options.filters},
          {"excludes", options.excludes},
          {"batch_size", options.batch_size ? json(*options.batch_size) : nullptr},
          {"input_shapes", options.input_shapes},
          {"repeat", options.repeat},
          {"warmup", options.warmup},
          {"iterations_per_run", options.iterations_per_run},
          {"randomize_input", options.randomize_input},
          {"flush_denormal", options.flush_denormal},
          {"threads", options.threads ? json(*options.threads) : nullptr},
          {"device", options.device},
          {"seed", options.seed},
          {"target_ci", options.target_ci},
          {"max_time_s", options.max_time_s},
          {"sample_order", sample_order_label(options.sample_order)},
          {"isolated", options.isolate},
          {"timeout_s", options.timeout_s},
          {"total_partitions", options.total_partitions},
          {"partition_id", options.partition_id}};
}

RunContext run_context(const RunOptions& options, size_t models) {
  RunContext context;
  context.settings = settings_to_json(options);
  context.environment = collect_environment();
  // At the run's thread count (apply_process_settings ran): the limit the
  // measured rows are compared with. Accuracy runs time nothing.
  if (!options.accuracy) context.environment.peak_gflops = measure_compute_peaks();
  context.backends = options.backends;
  context.models = models;
  context.accuracy = options.accuracy;
  context.resume = options.resume;
  return context;
}

}  // namespace tracebench
