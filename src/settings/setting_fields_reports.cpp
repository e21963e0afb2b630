#include "settings/setting_field_builders.h"

#include "report/reporters.h"

namespace tracebench {

using namespace setting_builders;

namespace {

// --output, --json, ...: one flag per report file format (report/reporters.h).
std::vector<SettingFlag> report_file_flags() {
  std::vector<SettingFlag> flags;
  for (const auto& format : report_file_formats()) {
    const std::string key = format.flag;
    flags.push_back({std::string("--") + format.flag, format.help,
                     [key](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
                       return app.add_option(flag.names, options.report_files[key], flag.help)
                           ->type_name("FILE")
                           ->group(kReportsGroup);
                     }});
  }
  return flags;
}

json report_files_given(const RunOptions& options) {
  json files = json::object();
  for (const auto& [flag, path] : options.report_files) {
    if (!path.empty()) files[flag] = path;
  }
  return files;
}

}  // namespace

std::vector<SettingField> report_settings() {
  return {
      // Measurement (docs/statistics.md).
      {"target_ci",
       {{"--target-ci",
         "Adaptive stopping: sample each backend until its speedup's 95% CI half-width is "
         "within this fraction of the speedup (e.g. 0.01), at least 10 samples; 0 keeps the "
         "fixed --repeat",
         bound(&RunOptions::target_ci)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::target_ci)},
      {"max_time_s",
       {{"--max-time",
         "With --target-ci: stop sampling a model after this many seconds (0: no cap)",
         bound(&RunOptions::max_time_s)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::max_time_s)},
      {"sample_order",
       {{"--sample-order",
         "interleaved: every repetition times eager and each backend once, shuffled (the "
         "default); blocked: each takes all its samples in a row, as a process running only "
         "that model would",
         named(&RunOptions::sample_order,
               std::map<std::string, SampleOrder>{
                   {sample_order_label(SampleOrder::kInterleaved), SampleOrder::kInterleaved},
                   {sample_order_label(SampleOrder::kBlocked), SampleOrder::kBlocked}})}},
       kChild,
       kChangesNumbers,
       kOneValue,
       [](const RunOptions& o) { return json(sample_order_label(o.sample_order)); }},
      // A child's: the child that measures a row adds its percentile warnings.
      {"percentiles",
       {{"--percentiles",
         "Print p50/p90/p99/p99.9 latency and throughput on each line, and warn where -n is too "
         "small for a percentile (the CSV and JSON always have them)",
         bound(&RunOptions::percentiles)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::percentiles)},

      // Reports: the parent's alone, as each child would write the files too.
      {"ci",
       {{"--ci",
         "Print the speedup's 95% bootstrap CI on one-backend lines too (several backends "
         "always show it)",
         report_flag(&RunOptions::print_ci)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::print_ci)},
      {"warnings",
       {{"--warnings",
         "Print noise warnings on stderr even when it is not a terminal (they are always in the "
         "CSV/JSON)",
         report_flag(&RunOptions::print_warnings)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::print_warnings)},
      {"reports", report_file_flags(), kParent, kSameNumbers, kOneValue, report_files_given},

      // Partitions (docs/scale-out.md).
      {"total_partitions",
       {{"--total-partitions",
         "Split the sorted model list into this many contiguous chunks (default: a Slurm "
         "array's task count, else TRACEBENCH_TOTAL_PARTITIONS in a Kubernetes Indexed Job, "
         "else 1)",
         bound(&RunOptions::total_partitions)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::total_partitions)},
      {"partition_id",
       {{"--partition-id",
         "Run chunk I (0-based) of --total-partitions (default: the Slurm array task's or the "
         "Kubernetes Indexed Job's index, else 0)",
         bound(&RunOptions::partition_id)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::partition_id)},
      {"partition_source",
       {},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::partition_source)},
  };
}

}  // namespace tracebench
