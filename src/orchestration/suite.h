#pragma once
// The loop over models: which models run, in what order, and the reporters
// each finished row goes to.

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "report/reporter.h"
#include "settings/run_options.h"

namespace tracebench {

/// The reporters `options` ask for: warnings and progress on `err`, the
/// console lines on `out`, and one per report file flag given (--output, --json).
std::vector<std::unique_ptr<Reporter>> make_reporters(const RunOptions& options, std::ostream& out,
                                                      std::ostream& err);

/// Runs performance (or accuracy) mode over the selected models, handing each
/// row to every reporter as it finishes. Returns every row (with --resume, the
/// kept ones too). Throws UsageError for a mistake in the options, or in the
/// one model of a single-model run; in a suite, a model the user got wrong
/// becomes model_fail_to_load rows and the suite goes on. What --resume does
/// is said on `err`.
std::vector<ResultRow> run_suite(const RunOptions& options,
                                 const std::vector<std::unique_ptr<Reporter>>& reporters,
                                 std::ostream& err);

/// The exit code of a finished run: 2 (bad input) if some model failed to
/// load, after saying which on `err` and how to finish the run; else 0.
int exit_code_of(const std::vector<ResultRow>& rows, const RunOptions& options, std::ostream& err);

}  // namespace tracebench
