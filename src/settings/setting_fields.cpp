#include "settings/setting_fields.h"

#include <CLI/CLI.hpp>
#include <algorithm>

namespace tracebench {

namespace {

using json = nlohmann::json;

std::vector<SettingField> make_setting_fields() {
  std::vector<SettingField> fields;
  for (auto group : {selection_settings, sampling_settings, process_settings, report_settings}) {
    for (auto& field : group()) fields.push_back(std::move(field));
  }
  return fields;
}

}  // namespace

const std::vector<SettingField>& setting_fields() {
  static const std::vector<SettingField> fields = make_setting_fields();
  return fields;
}

void declare_settings(CLI::App& app, RunOptions& options) {
  options.isolate = true;
  app.option_defaults()->always_capture_default();
  for (const auto& field : setting_fields()) {
    for (const auto& flag : field.flags) {
      CLI::Option* option = flag.declare(app, options, flag);
      if (field.sweepable) {
        option->delimiter(',');
        option->description(flag.help + "; a comma list measures each value, eager again at each");
      }
    }
  }
  // The flags of one setting that choose among its values exclude each other.
  app.get_option("--performance")->excludes(app.get_option("--accuracy"));
  app.get_option("--training")->excludes(app.get_option("--inference"));
  app.get_option("--float32")
      ->excludes(app.get_option("--bfloat16"))
      ->excludes(app.get_option("--amp"));
  app.get_option("--bfloat16")->excludes(app.get_option("--amp"));
}

std::vector<std::string> child_arguments(const CLI::App& app) {
  std::vector<std::string> args;
  for (const auto& field : setting_fields()) {
    if (field.reach != SettingReach::kChild) continue;
    for (const auto& flag : field.flags) {
      const CLI::Option* option = app.get_option_no_throw(flag.long_name());
      if (option == nullptr || option->count() == 0) continue;
      const std::string& name = option->get_lnames().front();
      if (option->get_type_size_max() == 0) {  // a flag
        for (size_t i = 0; i < option->count(); ++i) args.push_back("--" + name);
      } else {
        for (const auto& value : option->results()) args.push_back("--" + name + "=" + value);
      }
    }
  }
  return args;
}

json recorded_settings(const RunOptions& options) {
  json settings = json::object();
  for (const auto& field : setting_fields()) {
    if (field.json_key != nullptr) settings[field.json_key] = field.record(options);
  }
  return settings;
}

json requested_settings(const CLI::App& app, const RunOptions& options) {
  json requested = json::object();
  for (const auto& field : setting_fields()) {
    if (field.json_key == nullptr) continue;
    const bool given = std::any_of(field.flags.begin(), field.flags.end(), [&](const auto& flag) {
      const CLI::Option* option = app.get_option_no_throw(flag.long_name());
      return option != nullptr && option->count() > 0;
    });
    if (given) requested[field.json_key] = field.record(options);
  }
  return requested;
}

std::vector<std::string> settings_that_change_numbers() {
  std::vector<std::string> keys;
  for (const auto& field : setting_fields()) {
    if (field.changes_numbers) keys.push_back(field.json_key);
  }
  return keys;
}

}  // namespace tracebench
