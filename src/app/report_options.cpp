#include "app/report_options.h"

namespace tracebench {

void add_measurement_and_report_options(CLI::App& app, RunOptions& options) {
  app.add_option("--target-ci", options.target_ci,
                 "Adaptive stopping: sample each backend until its speedup's 95% CI half-width "
                 "is within this fraction of the speedup (e.g. 0.01), at least 10 samples; "
                 "0 keeps the fixed --repeat");
  app.add_option("--max-time", options.max_time_s,
                 "With --target-ci: stop sampling a model after this many seconds (0: no cap)");
  app.add_flag("--ci", options.print_ci,
               "Print the speedup's 95% bootstrap CI on one-backend lines too "
               "(several backends always show it)");
  app.add_flag("--warnings", options.print_warnings,
               "Print noise warnings on stderr even when it is not a terminal (they are always "
               "in the CSV/JSON)");
  app.add_option("--json", options.json_output,
                 "Write a JSON report (raw samples, environment) to this file, rewritten "
                 "atomically after each model (default: none)");
  app.add_option("--total-partitions", options.total_partitions,
                 "Split the sorted model list into this many contiguous chunks");
  app.add_option("--partition-id", options.partition_id,
                 "Run chunk I (0-based) of --total-partitions");
}

}  // namespace tracebench
