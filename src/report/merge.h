#pragma once
// `tracebench merge`: several JSON reports (partitions of one run, or runs of
// different models) into one.

#include <string>
#include <utility>
#include <vector>

#include "report/json.h"

namespace tracebench {

/// Rows of every input in order; the environment and config of the first,
/// with config.merged_from listing every input path. Throws UsageError if
/// `inputs` is empty or a (model, backend, mode) appears in two inputs.
RunReport merge_reports(const std::vector<std::pair<std::string, RunReport>>& inputs);

}  // namespace tracebench
