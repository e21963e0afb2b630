#pragma once
// RunOptions described once, as row_fields() describes ResultRow. Every
// setting is one entry of setting_fields(): the flags that set it and their
// help, the recorded config's key, whether a model's child process gets it,
// whether a change of it changes the numbers (for `compare`) and whether a
// comma list of it is a sweep. The CLI, the child's argv, the recorded config
// and `compare` all iterate this table, so a new flag is one entry here plus
// the code that uses its value.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "settings/run_options.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace tracebench {

/// Where a setting takes effect when each model runs in a child process.
enum class SettingReach {
  /// Only the parent acts on it: which models run, the launcher (it starts
  /// each child with its binding, allocator and wait policy), the reports.
  kParent,
  /// A model's child process gets its flags as the user gave them.
  kChild,
  /// The parent hands each child its own value: the model, the backends
  /// (less auto's skipped candidates), the sweep point, and the child's
  /// files (orchestration/isolation.cpp).
  kEachChild,
};

/// One flag of a setting, as `--help` shows it.
struct SettingFlag {
  std::string names;  // CLI11's names: "-n,--repeat"
  std::string help;
  /// "--repeat" of "-n,--repeat": what CLI11 finds the option by.
  std::string long_name() const { return names.substr(names.rfind(',') + 1); }
  /// Declares the flag on `app`, bound to `options`.
  std::function<CLI::Option*(CLI::App& app, RunOptions& options, const SettingFlag& flag)> declare;
};

struct SettingField {
  /// The recorded config's key (the JSON report's "config"); nullptr for the
  /// child's internal plumbing, which is no setting of the run.
  const char* json_key;
  /// The flags that set it; empty for a setting the run derives
  /// (partition_source).
  std::vector<SettingFlag> flags;
  SettingReach reach;
  /// A run with another value measures something else, so `compare` says so;
  /// repeat, warm-up and seed only change how well it is measured.
  bool changes_numbers;
  /// A comma list measures every value (settings/sweep.h).
  bool sweepable;
  /// The recorded value.
  std::function<nlohmann::json(const RunOptions&)> record;
};

/// Every setting, in --help order.
const std::vector<SettingField>& setting_fields();

/// The table's groups, by concern, each in its own file
/// (settings/setting_fields_GROUP.cpp, written with settings/setting_field_builders.h):
/// what is measured and which models and backends,
std::vector<SettingField> selection_settings();
/// the inputs and how samples are taken,
std::vector<SettingField> sampling_settings();
/// what a run saves beside its rows, robustness and the launcher,
std::vector<SettingField> process_settings();
/// the statistics, the reports and the partitions.
std::vector<SettingField> report_settings();

/// Declares every setting's flags on `app`, bound to `options` (whose
/// `isolate` becomes true: the CLI runs each model in a child process).
void declare_settings(CLI::App& app, RunOptions& options);

/// The flags given to `app` (declared by declare_settings) that a model's
/// child process gets as they were given, as `--name=value` arguments.
std::vector<std::string> child_arguments(const CLI::App& app);

/// The recorded config: every setting's value by its key. A run records the
/// effective values (the partition a scheduler gave, the allocator in use),
/// and under "requested" what the user asked for (requested_settings).
nlohmann::json recorded_settings(const RunOptions& options);

/// The settings whose flags were given to `app`, by key, with the values
/// `options` has right after parsing: what the user asked for, kept as asked.
/// A key left out was not asked for (its default, or what the run chose).
nlohmann::json requested_settings(const CLI::App& app, const RunOptions& options);

/// The recorded config's keys whose change changes what a row measures.
std::vector<std::string> settings_that_change_numbers();

/// The --help heading of the report flags, which a child process never gets.
inline constexpr const char* kReportsGroup = "Reports";

}  // namespace tracebench
