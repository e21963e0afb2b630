#pragma once
// The loop over models: which models run, in what order, and where each
// finished row goes (console, CSV).

#include <ostream>
#include <string>
#include <vector>

#include "report/result_row.h"
#include "runner/run_options.h"
#include "sources/model_spec.h"

namespace tracebench {

/// The models a run covers: the --only specs, else the built-in models whose
/// names match a -k filter (all if none) and no -x exclude, sorted by name.
std::vector<ModelSpec> select_models(const RunOptions& options);

/// Runs performance (or accuracy) mode over the selected models, printing each
/// row to `out` as it finishes and, at the end, the grid table with several
/// backends (or the accuracy pass rate).
/// Returns every row. Throws UsageError for a mistake in the options.
std::vector<ResultRow> run_performance_suite(const RunOptions& options, std::ostream& out);

}  // namespace tracebench
