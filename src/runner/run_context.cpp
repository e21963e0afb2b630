#include "runner/run_context.h"

#include <torch/script.h>

#include <cstdlib>
#include <optional>

#include "measure/compute_peak.h"
#include "measure/system_checks.h"
#include "runner/execution_settings.h"
#include "runner/status_rows.h"
#include "util/cpu_set.h"

namespace tracebench {

namespace {

// A swept setting is its list, else its one value (null when unset).
template <typename Value>
nlohmann::json swept_or_single(const std::vector<Value>& sweep, std::optional<Value> value) {
  if (sweep.size() > 1) return sweep;
  if (sweep.size() == 1) value = sweep.front();
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

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
          {"batch_size", swept_or_single(options.batch_size_sweep, options.batch_size)},
          {"input_shapes", options.input_shapes},
          {"inputs", options.inputs_file},
          {"input_pool", options.input_pool},
          {"repeat", options.repeat},
          {"warmup", options.warmup},
          {"iterations_per_run", options.iterations_per_run},
          {"randomize_input", options.randomize_input},
          {"flush_denormal", options.flush_denormal},
          {"threads", swept_or_single(options.threads_sweep, options.threads)},
          {"streams", options.streams},
          {"malloc", swept_or_single(options.allocator_sweep, std::optional(options.allocator))},
          {"cpus", options.cpus},
          {"omp_wait", options.omp_wait},
          {"cooldown_s", options.cooldown_s},
          {"device", options.device},
          {"seed", options.seed},
          {"target_ci", options.target_ci},
          {"max_time_s", options.max_time_s},
          {"sample_order", sample_order_label(options.sample_order)},
          {"isolated", options.isolate},
          {"timeout_s", options.timeout_s},
          {"total_partitions", options.total_partitions},
          {"partition_id", options.partition_id},
          {"partition_source", options.partition_source}};
}

RunContext run_context(const RunOptions& options, const std::vector<RunOptions>& points,
                       size_t models) {
  RunContext context;
  context.settings = settings_to_json(options);
  std::map<int64_t, std::map<std::string, double>> peaks;
  // Last point first, so that the process is left at the first point's
  // settings, the ones the environment records.
  for (auto point = points.rbegin(); point != points.rend(); ++point) {
    apply_process_settings(*point);
    // The limit the rows measured at this thread count are compared with.
    // Accuracy runs time nothing.
    if (options.accuracy) continue;
    auto& at_threads = peaks[torch::get_num_threads()];
    if (at_threads.empty()) at_threads = measure_compute_peaks();
  }
  context.environment = collect_environment();
  context.environment.peak_gflops_by_threads = std::move(peaks);
  SystemCheckInputs check_inputs;
  check_inputs.cpus = allowed_cpus();
  check_inputs.build_type = context.environment.build_type;
  if (const char* openblas = std::getenv("OPENBLAS_NUM_THREADS")) {
    check_inputs.openblas_threads_variable = openblas;
  }
  context.environment.system_checks = check_system(check_inputs, read_system_file);
  context.backends = options.backends;
  context.models = models * points.size();
  context.accuracy = options.accuracy;
  context.resume = options.resume;
  return context;
}

}  // namespace tracebench
