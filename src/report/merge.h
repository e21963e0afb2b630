#pragma once
// `tracebench merge`: several JSON reports (partitions of one run, or runs of
// different models) into one.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "report/json.h"

namespace tracebench {

/// Rows of every input in order; the environment and config of the first,
/// with config.merged_from listing every input path. Throws UsageError if
/// `inputs` is empty or a (model, backend, mode) appears in two inputs.
RunReport merge_reports(const std::vector<std::pair<std::string, RunReport>>& inputs);

struct PartitionCoverage {
  int64_t total = 1;             // the run's --total-partitions; 1 when no input is a partition
  std::vector<int64_t> missing;  // the partition ids no input holds, in order
};

/// Which partitions of one run (config total_partitions > 1) `inputs` hold.
/// Throws UsageError when inputs split the model list into different numbers
/// of partitions.
PartitionCoverage partition_coverage(const std::vector<std::pair<std::string, RunReport>>& inputs);

}  // namespace tracebench
