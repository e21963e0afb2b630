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

/// One model in this process: a row per backend. Load failures become
/// model_fail_to_load rows; a UsageError (e.g. no such class) is rethrown.
std::vector<ResultRow> run_model_in_process(const ModelSpec& spec, const RunOptions& options);

/// Runs performance (or accuracy) mode over the selected models, printing each
/// row to `out` as it finishes and, at the end, the grid table with several
/// backends (or the accuracy pass rate). Returns every row. Throws UsageError
/// for a mistake in the options, or in the one model of a single-model run; in
/// a suite, a model the user got wrong becomes model_fail_to_load rows and the
/// suite goes on.
std::vector<ResultRow> run_suite(const RunOptions& options, std::ostream& out);

/// The exit code of a finished run: 2 (bad input) if some model failed to
/// load, after saying which on `err` and how to finish the run; else 0.
int exit_code_of(const std::vector<ResultRow>& rows, const RunOptions& options, std::ostream& err);

}  // namespace tracebench
