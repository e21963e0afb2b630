#pragma once
// Where every result row starts, how a failure is written into one, and the
// rows of a model that was not measured: one per requested backend, all with
// the same status and error. Load failures, dead child processes and usage
// mistakes inside a suite all become rows this one way.

#include <exception>
#include <string>
#include <vector>

#include "report/result_row.h"
#include "settings/model_run.h"
#include "tracebench/backend.h"

namespace tracebench {

/// The row every result of `backend` on `model` starts from: the run's mode,
/// precision, iterations per sample and streams, the point's threads, status
/// pass. What it was measured at (batch size, allocator) its measurement
/// fills in.
ResultRow row_for(const std::string& model, const std::string& backend, const ModelRun& run);

/// A row for `backend` of `model` at `run`'s point, with `status` and the
/// first line of `error`.
ResultRow status_row(const std::string& model, const std::string& backend, const ModelRun& run,
                     const char* status, const std::string& error);

/// Copies what `compiled` says of itself into `row`: its counters, the
/// candidate `auto` chose, and its warnings, each message prefixed with the
/// row's backend.
void record_compiled_model(ResultRow& row, const CompiledModel& compiled);

/// status_row for every backend of `run`.
std::vector<ResultRow> status_rows(const std::string& model, const ModelRun& run,
                                   const char* status, const std::string& error);

}  // namespace tracebench
