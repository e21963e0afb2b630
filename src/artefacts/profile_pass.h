#pragma once
// --profile DIR: after sampling, one more call of each measured backend, not
// timed, under the op profiler (measure/op_profile.h).

#include <string>
#include <vector>

#include "report/result_row.h"
#include "tracebench/backend.h"

namespace tracebench {

/// Where a row's trace goes: DIR/<model>.<backend>.json.
std::string profile_trace_path(const std::string& dir, const std::string& model,
                               const std::string& backend);

/// Profiles one call of `compiled` into the row: its trace file and top ops.
/// A pass that fails is a `not_profiled` warning; the row's timings stand.
void profile_row(ResultRow& row, CompiledModel& compiled, const std::vector<c10::IValue>& inputs,
                 const std::string& dir);

}  // namespace tracebench
