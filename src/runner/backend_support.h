#pragma once
// Whether a backend can run in the requested mode and precision at all: a
// combination it cannot run becomes an `unsupported` row, not a failure.

#include <string>

#include "report/result_row.h"
#include "tracebench/backend.h"

namespace tracebench {

/// Why `backend` cannot run `mode` at `precision` (a one-line message for the
/// row), or "" when it can.
std::string unsupported_reason(const Backend& backend, Mode mode, Precision precision);

/// Adds the `traced_control_flow` warning to `row` when `backend` traces and
/// `model` branches or loops at run time: the trace kept one path.
void warn_if_control_flow_was_traced(ResultRow& row, Model& model, const Backend& backend);

}  // namespace tracebench
