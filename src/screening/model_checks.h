#pragma once
// What a run checks about a (model, backend) pair besides timing it: whether
// the backend can run the requested mode and precision at all (a combination
// it cannot run becomes an `unsupported` row, not a failure), whether a trace
// kept one path of data-dependent control flow, and whether eager's outputs
// hold NaN or Inf (the performance run times outputs, it does not check them,
// but a non-finite output may mean a degenerate path; docs/robustness.md).

#include <torch/script.h>

#include <string>

#include "report/result_row.h"
#include "tracebench/backend.h"

namespace tracebench {

/// Why `backend` cannot run `mode` at `precision` on `streams` concurrent
/// streams (a one-line message for the row), or "" when it can.
std::string unsupported_reason(const Backend& backend, Mode mode, Precision precision,
                               int64_t streams = 1);

/// Adds the `traced_control_flow` warning to `row` when `backend` traces and
/// `model` branches or loops at run time: the trace kept one path.
void warn_if_control_flow_was_traced(ResultRow& row, Model& model, const Backend& backend);

/// Adds the `non_tensor_outputs` warning to `row` when the model's forward
/// returns values beside its tensors (`dropped`, by path), which no backend
/// times or compares.
void warn_of_dropped_outputs(ResultRow& row, const std::vector<std::string>& dropped);

/// True if any floating-point tensor anywhere in `value` (tensors, tuples,
/// lists, dicts, nested) holds a NaN or an infinity.
bool has_non_finite(const c10::IValue& value);

/// "warning: eager output holds NaN or Inf" if `output` does, else "".
std::string non_finite_warning(const c10::IValue& output);

/// How many float32 values anywhere in `value` are denormal (nonzero, below
/// FLT_MIN in magnitude): arithmetic on them is many times slower on x86.
int64_t count_denormals(const c10::IValue& value);

}  // namespace tracebench
