// The settings table (settings/setting_fields.h) drives the CLI, the child's
// argv, the recorded config and `compare`. Each test gives every flag a value
// other than its default, so a flag bound to one member and recorded from
// another, a child-reaching flag that does not reach the child, or a setting
// left out of the config fails here.

#include "settings/setting_fields.h"

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <map>
#include <set>

#include "measure/environment.h"
#include "report/reporters.h"
#include "settings/model_run.h"
#include "settings/sweep.h"

namespace tracebench {
namespace {

using json = nlohmann::json;

// For each flag, arguments that give its setting a value other than the default.
const std::map<std::string, std::vector<std::string>>& sample_arguments() {
  static const std::map<std::string, std::vector<std::string>> samples = {
      {"--accuracy", {"--accuracy"}},
      {"--training", {"--training"}},
      {"--bfloat16", {"--bfloat16"}},
      {"--amp", {"--amp"}},
      {"--optimizer", {"--training", "--optimizer", "adam"}},
      {"--auto-tolerance", {"--auto-tolerance", "int8"}},
      {"--auto-skip", {"--auto-skip", "aot_inductor,xnnpack"}},
      {"--only", {"--only", "resnet18"}},
      {"--backend", {"--backend", "ofi,ts"}},
      {"--filter", {"-k", "res"}},
      {"--exclude", {"-x", "vgg"}},
      {"--batch-size", {"--batch-size", "1,8"}},
      {"--input-shapes", {"--input-shapes", "1x10"}},
      {"--inputs", {"--inputs", "in.pt"}},
      {"--input-pool", {"--input-pool", "2"}},
      {"--eval-inputs", {"--eval-inputs", "8"}},
      {"--shape-set", {"--shape-set", "batch=1,2"}},
      {"--repeat", {"-n", "5"}},
      {"--warmup", {"--warmup", "1"}},
      {"--iterations-per-run", {"--iterations-per-run", "2"}},
      {"--flush-denormal", {"--flush-denormal"}},
      {"--randomize-input", {"--randomize-input"}},
      {"--threads", {"--threads", "1,2"}},  // a list: one count may be the default
      {"--streams", {"--streams", "2"}},
      {"--devices", {"--devices", "cuda"}},
      {"--seed", {"--seed", "7"}},
      {"--weights", {"--weights", "w.pt"}},
      {"--save-optimized", {"--save-optimized", "saved"}},
      {"--save-outputs", {"--save-outputs", "outputs"}},
      {"--profile", {"--profile", "traces"}},
      {"--timeout", {"--timeout", "5"}},
      {"--no-isolation", {"--no-isolation"}},
      {"--resume", {"--resume"}},
      {"--backend-plugin", {"--backend-plugin", "p.so"}},
      {"--cpus", {"--cpus", "0"}},
      {"--malloc", {"--malloc", "glibc,jemalloc"}},
      {"--omp-wait", {"--omp-wait", "passive"}},
      {"--cooldown", {"--cooldown", "1"}},
      {"--target-ci", {"--target-ci", "0.1"}},
      {"--max-time", {"--max-time", "5"}},
      {"--sample-order", {"--sample-order", "blocked"}},
      {"--percentiles", {"--percentiles"}},
      {"--ci", {"--ci"}},
      {"--warnings", {"--warnings"}},
      {"--output", {"--output", "rows.csv"}},
      {"--json", {"--json", "run.json"}},
      {"--html", {"--html", "run.html"}},
      {"--markdown", {"--markdown", "run.md"}},
      {"--total-partitions", {"--total-partitions", "2"}},
      {"--partition-id", {"--partition-id", "1"}},
  };
  return samples;
}

// Flags that choose their setting's default value: giving them records nothing new.
const std::set<std::string> kChooseTheDefault = {"--performance", "--inference", "--float32"};

struct Parsed {
  CLI::App app;
  RunOptions options;
};

std::unique_ptr<Parsed> parse(std::vector<std::string> args) {
  auto parsed = std::make_unique<Parsed>();
  declare_settings(parsed->app, parsed->options);
  std::reverse(args.begin(), args.end());  // CLI11 parses a reversed vector
  parsed->app.parse(args);
  return parsed;
}

// The user-facing flags (not the child's plumbing), with their setting.
std::vector<std::pair<const SettingField*, const SettingFlag*>> user_flags() {
  std::vector<std::pair<const SettingField*, const SettingFlag*>> flags;
  for (const auto& field : setting_fields()) {
    if (field.json_key == nullptr) continue;
    for (const auto& flag : field.flags) flags.emplace_back(&field, &flag);
  }
  return flags;
}

TEST(SettingFields, EveryFlagChangesTheSettingItIsRecordedAs) {
  const json defaults = recorded_settings(parse({})->options);
  for (const auto& [field, flag] : user_flags()) {
    const std::string name = flag->long_name();
    if (kChooseTheDefault.count(name)) continue;
    const auto sample = sample_arguments().find(name);
    ASSERT_NE(sample, sample_arguments().end())
        << name << " has no sample value here: add one to sample_arguments()";
    const json recorded = recorded_settings(parse(sample->second)->options);
    EXPECT_NE(recorded[field->json_key], defaults[field->json_key])
        << name << " does not change the recorded " << field->json_key;
  }
}

TEST(SettingFields, TheConfigRecordsEverySettingByItsKey) {
  const json recorded = recorded_settings(parse({})->options);
  std::set<std::string> keys;
  for (const auto& field : setting_fields()) {
    if (field.json_key == nullptr) continue;
    EXPECT_TRUE(keys.insert(field.json_key).second) << "two settings record " << field.json_key;
    EXPECT_TRUE(recorded.contains(field.json_key)) << field.json_key;
  }
  EXPECT_EQ(recorded.size(), keys.size());
  for (const auto& key : settings_that_change_numbers()) EXPECT_TRUE(keys.count(key)) << key;
}

// compare refuses two runs whose auto ran under different budgets: under
// another --auto-tolerance, auto may run another candidate at another
// precision, so its row measures something else.
TEST(SettingFields, AnotherAutoBudgetMeasuresSomethingElse) {
  const auto keys = settings_that_change_numbers();
  EXPECT_NE(std::find(keys.begin(), keys.end(), "auto_tolerance"), keys.end());
  EXPECT_EQ(std::find(keys.begin(), keys.end(), "repeat"), keys.end());
}

// A child process started with child_arguments() records what the parent
// recorded, for every setting that reaches it as given; no other flag reaches it.
TEST(SettingFields, ChildReachingFlagsReachTheChildAsGiven) {
  for (const auto& [field, flag] : user_flags()) {
    const std::string name = flag->long_name();
    const auto sample = sample_arguments().find(name);
    const std::vector<std::string> args =
        sample == sample_arguments().end() ? std::vector<std::string>{name} : sample->second;
    const auto parent = parse(args);
    const auto child_args = child_arguments(parent->app);
    const bool reaches = std::any_of(child_args.begin(), child_args.end(),
                                     [&](const auto& arg) { return arg.rfind(name, 0) == 0; });
    EXPECT_EQ(reaches, field->reach == SettingReach::kChild) << name;
    if (field->reach != SettingReach::kChild) continue;
    const auto child = parse(child_args);
    EXPECT_EQ(recorded_settings(child->options)[field->json_key],
              recorded_settings(parent->options)[field->json_key])
        << name;
  }
}

// A model's child process gets the parent's resolved run (settings/model_run.h)
// as arguments and, reading them back with the other flags, makes the same
// run: the same point, backends still owed, auto's skipped candidates and
// trace folder. Every setting the parent hands each child is among them,
// but the model and the child's own files, which the isolation adds.
TEST(SettingFields, TheChildReadsBackTheParentsModelRun) {
  const auto parent = parse({"--backend", "ofi,ts,auto", "--batch-size", "1,8", "--threads", "1,2",
                             "--auto-skip", "xnnpack", "--profile", "traces", "-n", "5"});
  const RunPoint point = sweep_points(parent->options).back();
  ModelRun run = model_run(parent->options, point);
  EXPECT_EQ(run.profile_dir, "traces/batch_8__2_threads");
  run.backends = {"ts", "auto"};        // ofi already has its row
  run.auto_skip.push_back("openvino");  // it killed an earlier child

  std::vector<std::string> child_args = child_arguments(parent->app);
  const auto handed = model_run_arguments(run);
  child_args.insert(child_args.end(), handed.begin(), handed.end());
  const auto child = parse(child_args);
  const ModelRun read_back = first_point_run(child->options);
  EXPECT_EQ(read_back.point.batch_size, point.batch_size);
  EXPECT_EQ(read_back.point.threads, point.threads);
  EXPECT_EQ(read_back.backends, run.backends);
  EXPECT_EQ(read_back.auto_skip, run.auto_skip);
  EXPECT_EQ(read_back.profile_dir, run.profile_dir);
  EXPECT_EQ(child->options.repeat, 5);

  const std::set<std::string> added_by_isolation = {"--only", "--rows-to", "--phase-to"};
  for (const auto& field : setting_fields()) {
    if (field.reach != SettingReach::kEachChild) continue;
    for (const auto& flag : field.flags) {
      const std::string name = flag.long_name();
      if (added_by_isolation.count(name)) continue;
      EXPECT_TRUE(std::any_of(handed.begin(), handed.end(),
                              [&](const auto& arg) { return arg.rfind(name + "=", 0) == 0; }))
          << name << " is handed to each child, but model_run_arguments leaves it out";
    }
  }
}

// The config records the thread count a run computes with, also when
// --threads was not given (it once recorded null); the request keeps that it
// was not given.
TEST(SettingFields, TheConfigRecordsTheThreadsThatRan) {
  const auto parsed = parse({});
  EXPECT_EQ(recorded_settings(parsed->options)["threads"], default_intra_op_threads());
  EXPECT_FALSE(requested_settings(parsed->app, parsed->options).contains("threads"));
  EXPECT_EQ(recorded_settings(parse({"--cpus", "0"})->options)["threads"], 1);
}

// What the user asked for is kept as asked: only the settings whose flags
// were given, with the values they gave.
TEST(SettingFields, RequestedSettingsAreTheGivenOnes) {
  const auto parsed = parse({"-n", "5", "--bfloat16", "--threads", "1,2"});
  EXPECT_EQ(requested_settings(parsed->app, parsed->options),
            json({{"repeat", 5}, {"precision", "bf16"}, {"threads", {1, 2}}}));
  const auto nothing = parse({});
  EXPECT_EQ(requested_settings(nothing->app, nothing->options), json::object());
}

TEST(SettingFields, ReportFlagsNeverReachAChild) {
  std::vector<std::string> args = {"--ci",      "--warnings", "--target-ci",      "0.1",
                                   "--timeout", "5",          "--backend-plugin", "p.so"};
  // Every report file format, so that a new one is covered the day it is added.
  for (const auto& format : report_file_formats()) {
    args.push_back(std::string("--") + format.flag);
    args.push_back(std::string("out.") + format.flag);
  }
  EXPECT_EQ(child_arguments(parse(args)->app),
            (std::vector<std::string>{"--backend-plugin=p.so", "--target-ci=0.1"}));
}

TEST(SettingFields, ReportFilesAreRecordedByFlag) {
  const auto parsed = parse({"--output", "rows.csv", "--json", "run.json"});
  EXPECT_EQ(report_file(parsed->options, kCsvReportFlag), "rows.csv");
  EXPECT_EQ(report_file(parsed->options, "json"), "run.json");
  EXPECT_EQ(report_file(parsed->options, "html"), "");
  EXPECT_EQ(recorded_settings(parsed->options)["reports"],
            json({{"output", "rows.csv"}, {"json", "run.json"}}));
}

TEST(SettingFields, ASweepableSettingTakesACommaList) {
  const auto parsed = parse({"--batch-size", "1,8", "--threads", "1,2"});
  EXPECT_EQ(parsed->options.batch_size_sweep, (std::vector<int64_t>{1, 8}));
  for (const auto& field : setting_fields()) {
    for (const auto& flag : field.flags) {
      const auto* option = parsed->app.get_option(flag.long_name());
      EXPECT_EQ(
          option->get_description().find("a comma list measures each value") != std::string::npos,
          field.sweepable)
          << flag.names;
    }
  }
}

}  // namespace
}  // namespace tracebench
