#include "app/report_options.h"

#include <cstdlib>

#include "report/reporters.h"
#include "runner/partition_source.h"

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
                 "Split the sorted model list into this many contiguous chunks (default: a "
                 "Slurm array's task count, else TRACEBENCH_TOTAL_PARTITIONS in a Kubernetes "
                 "Indexed Job, else 1)");
  app.add_option("--partition-id", options.partition_id,
                 "Run chunk I (0-based) of --total-partitions (default: the Slurm array task's "
                 "or the Kubernetes Indexed Job's index, else 0)");
}

void resolve_partition(const CLI::App& app, RunOptions& options, std::ostream& err) {
  auto given = [&app](const char* flag, int64_t value) {
    return app.get_option(flag)->count() > 0 ? std::optional<int64_t>(value) : std::nullopt;
  };
  const PartitionChoice choice =
      choose_partition(given("--total-partitions", options.total_partitions),
                       given("--partition-id", options.partition_id),
                       [](const char* name) { return std::getenv(name); });
  options.total_partitions = choice.total;
  options.partition_id = choice.id;
  options.partition_source = choice.source;
  if (!choice.said.empty()) err << "tracebench: " << choice.said << std::endl;
}

}  // namespace tracebench
