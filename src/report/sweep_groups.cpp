#include "report/sweep_groups.h"

#include <algorithm>
#include <map>
#include <set>
#include <type_traits>

#include "util/text.h"

namespace tracebench {

namespace {

// Whether some (model, backend) has rows at two values of `axis`.
template <typename Axis>
bool swept(const std::vector<ResultRow>& rows, Axis axis) {
  using Value = std::decay_t<decltype(axis(rows.front()))>;
  std::map<std::pair<std::string, std::string>, std::set<Value>> values;
  for (const auto& row : rows) values[{row.model, row.backend}].insert(axis(row));
  return std::any_of(values.begin(), values.end(),
                     [](const auto& entry) { return entry.second.size() > 1; });
}

}  // namespace

std::string sweep_label(std::optional<int64_t> batch_size, std::optional<int64_t> threads,
                        const std::string& allocator) {
  std::vector<std::string> parts;
  if (batch_size) parts.push_back("batch " + std::to_string(*batch_size));
  if (threads) parts.push_back(std::to_string(*threads) + (*threads == 1 ? " thread" : " threads"));
  if (!allocator.empty()) parts.push_back(allocator);
  return join(parts, ", ");
}

std::string row_sweep_label(const ResultRow& row, const nlohmann::json& settings) {
  // A swept setting is recorded as the list of its values.
  auto swept_setting = [&settings](const char* name) {
    return settings.contains(name) && settings[name].is_array();
  };
  return sweep_label(swept_setting("batch_size") ? std::optional(row.batch_size) : std::nullopt,
                     swept_setting("threads") ? std::optional(row.threads) : std::nullopt,
                     swept_setting("malloc") ? row.allocator : "");
}

bool sweeps_batch_size(const std::vector<ResultRow>& rows) {
  return swept(rows, [](const ResultRow& row) { return row.batch_size; });
}

bool sweeps_allocator(const std::vector<ResultRow>& rows) {
  return swept(rows, [](const ResultRow& row) { return row.allocator; });
}

std::vector<SweepGroup> sweep_groups(const std::vector<ResultRow>& rows) {
  const bool by_batch = sweeps_batch_size(rows);
  const bool by_threads = swept(rows, [](const ResultRow& row) { return row.threads; });
  const bool by_allocator = sweeps_allocator(rows);
  std::vector<SweepGroup> groups;
  for (const auto& row : rows) {
    const std::string label =
        sweep_label(by_batch ? std::optional<int64_t>(row.batch_size) : std::nullopt,
                    by_threads ? std::optional<int64_t>(row.threads) : std::nullopt,
                    by_allocator ? row.allocator : "");
    auto group = std::find_if(groups.begin(), groups.end(),
                              [&](const SweepGroup& g) { return g.label == label; });
    if (group == groups.end()) group = groups.insert(groups.end(), SweepGroup{label, {}});
    group->rows.push_back(row);
  }
  return groups;
}

}  // namespace tracebench
