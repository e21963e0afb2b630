#pragma once
// What the settings table's groups (settings/setting_fields.h) are written
// with: how a flag binds to its RunOptions member, how a setting is recorded,
// and the words their entries use.

#include <CLI/CLI.hpp>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "settings/setting_fields.h"

namespace tracebench::setting_builders {

using json = nlohmann::json;
using Declare = decltype(SettingFlag::declare);
using Record = decltype(SettingField::record);

// A flag (bool member) or an option taking a value, bound to the member.
template <typename Value>
Declare bound(Value RunOptions::*member) {
  return [member](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    if constexpr (std::is_same_v<Value, bool>) {
      return app.add_flag(flag.names, options.*member, flag.help);
    } else {
      return app.add_option(flag.names, options.*member, flag.help);
    }
  };
}

// An option taking a comma list (--backend eager,ofi), also repeatable.
template <typename Value>
Declare comma_list(std::vector<Value> RunOptions::*member) {
  return [member](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    return app.add_option(flag.names, options.*member, flag.help)->delimiter(',');
  };
}

// An option whose words name an enum's values (--sample-order blocked).
template <typename Value>
Declare named(Value RunOptions::*member, std::map<std::string, Value> names) {
  return [member, names](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    return app.add_option(flag.names, options.*member, flag.help)
        ->transform(CLI::CheckedTransformer(names, CLI::ignore_case));
  };
}

// A flag that sets the member to `value` (--training, --bfloat16).
template <typename Value>
Declare sets(Value RunOptions::*member, Value value) {
  return [member, value](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    return app.add_flag_callback(
        flag.names, [&options, member, value] { options.*member = value; }, flag.help);
  };
}

// A flag that only chooses (--performance, the default): the CLI reads its
// count. Flags without a variable take their description apart: under C++20
// (the PyTorch 2.x build) add_flag(name, description) is ambiguous in CLI11 2.3.
inline Declare chooses() {
  return [](CLI::App& app, RunOptions&, const SettingFlag& flag) {
    return app.add_flag(flag.names)->description(flag.help);
  };
}

// A report flag: the parent's alone, under its own --help heading.
inline Declare report_flag(bool RunOptions::*member) {
  return [member](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    return app.add_flag(flag.names, options.*member, flag.help)->group(kReportsGroup);
  };
}

// The child's plumbing: hidden from --help.
template <typename Value>
Declare internal(Value RunOptions::*member) {
  return [member](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    return app.add_option(flag.names, options.*member)->group("");
  };
}

template <typename Value>
Record value_of(Value RunOptions::*member) {
  return [member](const RunOptions& options) { return json(options.*member); };
}

// A swept setting is its list, else its one value (null when unset).
template <typename Value>
json swept_or_single(const std::vector<Value>& sweep, std::optional<Value> value) {
  if (sweep.size() > 1) return sweep;
  if (sweep.size() == 1) value = sweep.front();
  return value ? json(*value) : json(nullptr);
}

inline constexpr auto kParent = SettingReach::kParent;
inline constexpr auto kChild = SettingReach::kChild;
inline constexpr auto kEachChild = SettingReach::kEachChild;
inline constexpr bool kChangesNumbers = true, kSameNumbers = false;
inline constexpr bool kSweepable = true, kOneValue = false;

}  // namespace tracebench::setting_builders
