#pragma once
// The rows of a model that was not measured: one per requested backend, all
// with the same status and error. Load failures, dead child processes and
// usage mistakes inside a suite all become rows this one way.

#include <string>
#include <vector>

#include "report/result_row.h"
#include "runner/run_options.h"

namespace tracebench {

/// "train" or "eval", as the dynamo runner labels a row's mode.
const char* mode_label(Mode mode);

/// A row for `backend` of `model` with `status` and the first line of `error`.
ResultRow status_row(const std::string& model, const std::string& backend, const RunOptions& options,
                     const char* status, const std::string& error);

/// status_row for every backend in options.backends.
std::vector<ResultRow> status_rows(const std::string& model, const RunOptions& options,
                                   const char* status, const std::string& error);

}  // namespace tracebench
