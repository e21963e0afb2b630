#include "report/precision_grid.h"

#include <algorithm>
#include <map>

#include "accuracy/accuracy_budget.h"
#include "measure/environment.h"
#include "report/console.h"
#include "report/sweep_groups.h"
#include "util/text.h"

namespace tracebench {

namespace {

// Whether a passing row may stand in the budget's column: a float32 one
// always (its outputs are float32's within the exact rule it passed), one
// below float32 when its measured cost keeps every bound.
bool keeps_budget(const ResultRow& row, const AccuracyBudget& budget) {
  if (!row.ran_below_float32()) return true;
  const Top1Agreement top1{row.top1_agreement, ""};
  return budget_shortfall(budget, row.sqnr_db, top1).empty();
}

struct ModelCells {
  const ResultRow* fastest_fp32 = nullptr;
  const ResultRow* fastest_within_budget = nullptr;
};

void keep_faster(const ResultRow*& best, const ResultRow& row) {
  if (best == nullptr || row.speedup > best->speedup) best = &row;
}

// "bf16 sqnr=41.2dB" below float32 (the console's cost without its leading
// space), "fp32" otherwise.
std::string cost_text(const ResultRow& row) {
  return row.ran_below_float32() ? format_precision_cost(row).substr(1) : "fp32";
}

std::vector<std::vector<std::string>> grid_cells(const std::vector<ResultRow>& rows,
                                                 const AccuracyBudget& budget) {
  std::vector<std::string> models;
  std::map<std::string, ModelCells> cells;
  for (const auto& row : rows) {
    if (cells.find(row.model) == cells.end()) models.push_back(row.model);
    auto& model = cells[row.model];
    if (!row.passed()) continue;
    if (!row.ran_below_float32()) keep_faster(model.fastest_fp32, row);
    if (keeps_budget(row, budget)) keep_faster(model.fastest_within_budget, row);
  }
  std::vector<std::vector<std::string>> table = {
      {"Model", "fastest fp32", "speedup", "fastest within budget", "speedup", "cost", "gain"}};
  for (const auto& model : models) {
    const auto& [fp32, within] = cells[model];
    std::vector<std::string> line = {model};
    line.push_back(fp32 ? backend_label(*fp32) : "-");
    line.push_back(fp32 ? printf_string("%.3f", fp32->speedup) : "-");
    line.push_back(within ? backend_label(*within) : "-");
    line.push_back(within ? printf_string("%.3f", within->speedup) : "-");
    line.push_back(within ? cost_text(*within) : "-");
    line.push_back(fp32 && within ? printf_string("%.2fx", within->speedup / fp32->speedup) : "-");
    table.push_back(line);
  }
  return table;
}

}  // namespace

AccuracyBudget default_precision_grid_budget() { return parse_accuracy_budget("sqnr=30"); }

AccuracyBudget precision_grid_budget(const std::string& auto_tolerance) {
  try {
    const AccuracyBudget budget = parse_accuracy_budget(auto_tolerance);
    if (budget.by_measure()) return budget;
  } catch (const std::invalid_argument&) {
    // A report written before budgets by measure: the default stands.
  }
  return default_precision_grid_budget();
}

std::string format_precision_grid(const std::vector<ResultRow>& rows, const AccuracyBudget& budget,
                                  const std::vector<std::string>& cpu_flags) {
  if (std::none_of(rows.begin(), rows.end(),
                   [](const ResultRow& row) { return row.ran_below_float32(); })) {
    return "";
  }
  if (!has_native_bf16(cpu_flags) && !has_native_int8_dot(cpu_flags)) {
    return "no precision grid: this CPU has neither a native bf16 dot product (avx512_bf16, "
           "amx_bf16) nor an int8 one that sums in 32 bits (avx512_vnni, avx_vnni, amx_int8), so "
           "bf16 is emulated and int8 keeps 7-bit activations here: float32 is the fair answer\n";
  }
  std::string out;
  for (const auto& group : sweep_groups(rows)) {
    out += "\nfastest within the accuracy budget " + accuracy_budget_label(budget) +
           " (SQNR in dB, top-1 agreement in %, against float32 eager; --auto-tolerance sets "
           "it)" +
           (group.label.empty() ? "" : ", " + group.label) + ":\n";
    // Names and costs read left-aligned, speedups and gains right-aligned.
    out += render_text_grid(grid_cells(group.rows, budget),
                            {true, true, false, true, false, true, false});
  }
  return out;
}

}  // namespace tracebench
