#pragma once
// --profile's top ops of every backend of a model side by side, rank by rank,
// so that a reader sees which ops a backend made cheaper (HTML and markdown).

#include <string>
#include <vector>

#include "report/result_row.h"

namespace tracebench {

struct OpTable {
  std::string title;  // "resnet18" or, in a sweep, "resnet18, batch 8"
  /// Header first: "#", then per backend "<backend> op" and "<backend> self";
  /// a cell reads "aten::conv2d x20" and "12.31 ms, 45%".
  std::vector<std::vector<std::string>> cells;
};

/// One table per model (and sweep point) that has a profiled row; the
/// backends in `backends` order, those without a profile left out.
std::vector<OpTable> top_op_tables(const std::vector<ResultRow>& rows,
                                   const std::vector<std::string>& backends);

}  // namespace tracebench
