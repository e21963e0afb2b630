#pragma once
// The grid a run ends with when some of its rows ran below float32: for each
// model, the fastest float32 cell against the fastest cell whose accuracy cost
// keeps a stated budget, so a reader sees what precision buys here and at what
// cost (docs/accuracy.md, "The precision grid").

#include <string>
#include <vector>

#include "report/result_row.h"
#include "tracebench/backend.h"

namespace tracebench {

/// The budget the grid states when the run gives none by measure: 30 dB SQNR,
/// about what per-tensor int8 of a convolutional net keeps with real weights
/// (ONNX Runtime's and torchao's debuggers read below it as a loss worth
/// looking at), and far below what bf16 keeps.
AccuracyBudget default_precision_grid_budget();

/// The budget of a run whose settings give `auto_tolerance` (its
/// --auto-tolerance label): that budget where it is one by measure, the
/// default above otherwise.
AccuracyBudget precision_grid_budget(const std::string& auto_tolerance);

/// "" when no row ran below float32. On a CPU whose `cpu_flags` have neither a
/// native bf16 dot product nor a 32-bit int8 one, a line that says why there
/// is no grid. Otherwise the heading (with the budget) and the grid: model,
/// fastest float32 backend and speedup, fastest backend within `budget` with
/// its precision, speedup and cost, and the gain of the second over the
/// first. A sweep's rows get one grid per point.
std::string format_precision_grid(const std::vector<ResultRow>& rows, const AccuracyBudget& budget,
                                  const std::vector<std::string>& cpu_flags);

}  // namespace tracebench
