#include "execution/run_context.h"

#include <cstdlib>

#include "execution/execution_settings.h"
#include "execution/status_rows.h"
#include "measure/compute_peak.h"
#include "measure/system_checks.h"
#include "settings/setting_fields.h"
#include "util/cpu_set.h"

namespace tracebench {

RunContext run_context(const RunOptions& options, const std::vector<RunPoint>& points,
                       size_t models) {
  RunContext context;
  context.settings = recorded_settings(options);
  if (!options.requested.is_null()) context.settings["requested"] = options.requested;
  std::map<int64_t, std::map<std::string, double>> peaks;
  // Last point first, so that the process is left at the first point's
  // settings, the ones the environment records.
  for (auto point = points.rbegin(); point != points.rend(); ++point) {
    apply_process_settings(options, *point);
    // The limit the rows measured at this thread count are compared with.
    // Accuracy runs time nothing.
    if (options.accuracy) continue;
    auto& at_threads = peaks[point->threads];
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
