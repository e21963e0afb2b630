#include "report/op_tables.h"

#include <algorithm>

#include "report/sweep_groups.h"
#include "util/text.h"

namespace tracebench {

namespace {

OpTable table_of(const std::string& title, const std::vector<const ResultRow*>& profiled) {
  OpTable table{title, {{"#"}}};
  size_t ranks = 0;
  for (const ResultRow* row : profiled) {
    table.cells[0].push_back(row->backend + " op");
    table.cells[0].push_back(row->backend + " self");
    ranks = std::max(ranks, row->top_ops.size());
  }
  for (size_t rank = 0; rank < ranks; ++rank) {
    std::vector<std::string> line = {std::to_string(rank + 1)};
    for (const ResultRow* row : profiled) {
      if (rank >= row->top_ops.size()) {
        line.insert(line.end(), {"", ""});
        continue;
      }
      const OpSelfTime& op = row->top_ops[rank];
      line.push_back(op.name + " x" + std::to_string(op.calls));
      line.push_back(printf_string("%.3f ms", op.self_ms) + ", " +
                     printf_string("%.0f%%", 100 * op.share));
    }
    table.cells.push_back(std::move(line));
  }
  return table;
}

}  // namespace

std::vector<OpTable> top_op_tables(const std::vector<ResultRow>& rows,
                                   const std::vector<std::string>& backends) {
  std::vector<OpTable> tables;
  for (const auto& group : sweep_groups(rows)) {
    std::vector<std::string> models;
    for (const auto& row : group.rows) {
      if (!row.top_ops.empty() &&
          std::find(models.begin(), models.end(), row.model) == models.end()) {
        models.push_back(row.model);
      }
    }
    for (const auto& model : models) {
      std::vector<const ResultRow*> profiled;
      for (const auto& backend : backends) {
        for (const auto& row : group.rows) {
          if (row.model == model && row.backend == backend && !row.top_ops.empty()) {
            profiled.push_back(&row);
          }
        }
      }
      tables.push_back(
          table_of(group.label.empty() ? model : model + ", " + group.label, profiled));
    }
  }
  return tables;
}

}  // namespace tracebench
