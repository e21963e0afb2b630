#include "report/merge.h"

#include <map>
#include <set>

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

PartitionCoverage partition_coverage(const std::vector<std::pair<std::string, RunReport>>& inputs) {
  int64_t total = 1;
  std::string total_from;
  std::set<int64_t> present;
  for (const auto& [path, report] : inputs) {
    const int64_t split = report.config.value("total_partitions", int64_t{1});
    if (split <= 1) continue;
    if (total > 1 && split != total) {
      throw UsageError(path + " is partition of " + std::to_string(split) + ", " + total_from +
                       " of " + std::to_string(total) +
                       "; merge the partitions of one run (the same --total-partitions)");
    }
    total = split;
    total_from = path;
    present.insert(report.config.value("partition_id", int64_t{0}));
  }
  PartitionCoverage coverage;
  coverage.total = total;
  if (total == 1) return coverage;  // no input is a partition
  for (int64_t id = 0; id < total; ++id) {
    if (!present.count(id)) coverage.missing.push_back(id);
  }
  return coverage;
}

}  // namespace tracebench
