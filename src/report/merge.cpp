#include "report/merge.h"

#include <map>

#include "tracebench/error.h"

namespace tracebench {

RunReport merge_reports(const std::vector<std::pair<std::string, RunReport>>& inputs) {
  if (inputs.empty()) throw UsageError("merge needs at least one JSON report");
  RunReport merged;
  merged.environment = inputs.front().second.environment;
  merged.config = inputs.front().second.config;
  merged.config["merged_from"] = nlohmann::json::array();
  std::map<RowKey, std::string> seen;
  for (const auto& [path, report] : inputs) {
    merged.config["merged_from"].push_back(path);
    for (const auto& row : report.rows) {
      auto [it, fresh] = seen.emplace(row_key(row), path);
      if (!fresh) {
        throw UsageError(row.model + " / " + row.backend + " is in both " + it->second + " and " +
                         path + "; merge reports of disjoint models (e.g. partitions)");
      }
      merged.rows.push_back(row);
    }
  }
  return merged;
}

}  // namespace tracebench
