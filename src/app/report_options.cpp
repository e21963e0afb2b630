#include "app/report_options.h"

#include "report/reporters.h"

namespace tracebench {

void add_measurement_and_report_options(CLI::App& app, RunOptions& options) {
  app.add_option("--target-ci", options.target_ci,
                 "Adaptive stopping: sample each backend until its speedup's 95% CI half-width "
                 "is within this fraction of the speedup (e.g. 0.01), at least 10 samples; "
                 "0 keeps the fixed --repeat");
  app.add_option("--max-time", options.max_time_s,
                 "With --target-ci: stop sampling a model after this many seconds (0: no cap)");
  app.add_option("--sample-order", options.sample_order,
                 "interleaved: every repetition times eager and each backend once, shuffled (the "
                 "default); blocked: each takes all its samples in a row, as a process running "
                 "only that model would")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, SampleOrder>{
              {sample_order_label(SampleOrder::kInterleaved), SampleOrder::kInterleaved},
              {sample_order_label(SampleOrder::kBlocked), SampleOrder::kBlocked}},
          CLI::ignore_case));
  // Not in the reports group: the child that measures a row adds its warnings.
  app.add_flag("--percentiles", options.percentiles,
               "Print p50/p90/p99/p99.9 latency and throughput on each line, and warn where "
               "-n is too small for a percentile (the CSV and JSON always have them)");
  // Reports are the parent's: nothing in this group reaches a model's child process.
  app.add_flag("--ci", options.print_ci,
               "Print the speedup's 95% bootstrap CI on one-backend lines too "
               "(several backends always show it)")
      ->group(kReportsGroup);
  app.add_flag("--warnings", options.print_warnings,
               "Print noise warnings on stderr even when it is not a terminal (they are always "
               "in the CSV/JSON)")
      ->group(kReportsGroup);
  for (const auto& format : report_file_formats()) {
    app.add_option(std::string("--") + format.flag, options.report_files[format.flag], format.help)
        ->type_name("FILE")
        ->group(kReportsGroup);
  }
  app.add_option("--total-partitions", options.total_partitions,
                 "Split the sorted model list into this many contiguous chunks");
  app.add_option("--partition-id", options.partition_id,
                 "Run chunk I (0-based) of --total-partitions");
}

}  // namespace tracebench
