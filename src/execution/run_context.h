#pragma once
// The run's context (report/reporter.h) from its validated options: the
// settings every report records (settings/setting_fields.h) and the environment.

#include <string>

#include "report/reporter.h"
#include "settings/run_options.h"
#include "settings/run_point.h"

namespace tracebench {

/// Collects the environment now, with the compute probe run at each thread
/// count of the sweep's `points` (settings/sweep.h) for `models` models each.
/// Leaves the process at the first point's settings (apply_process_settings).
RunContext run_context(const RunOptions& options, const std::vector<RunPoint>& points,
                       size_t models);

}  // namespace tracebench
