#pragma once
// What a person reads on the terminal: the seed's per-row line and the grid.

#include <string>
#include <vector>

#include "report/result_row.h"

namespace tracebench {

/// "1.002x p=0.83" for a measured row, the status (and error) otherwise.
std::string format_speedup(const ResultRow& row);

/// The dynamo runner's line: "cpu  eval  LinearModel<pad to 34> 1.002x p=0.83".
/// With `with_backend`, the backend name follows the model name.
std::string format_result_line(const ResultRow& row, bool with_backend);

/// Accuracy mode's line: "cpu  eval  resnet18  ofi  pass", or the status and
/// the worst output's errors.
std::string format_accuracy_line(const ResultRow& row, bool with_backend);

/// "accuracy: 5/6 pass" over accuracy rows.
std::string format_pass_rate(const std::vector<ResultRow>& rows);

/// A `+---+` grid of models x backends (speedups, or the status of failed
/// cells) with a geomean row over each backend's measured rows.
std::string format_grid_table(const std::vector<ResultRow>& rows,
                              const std::vector<std::string>& backends);

}  // namespace tracebench
