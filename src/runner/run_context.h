#pragma once
// The run's context (report/reporter.h) from its validated options: the
// settings every report records and `compare` checks, and the environment.

#include <string>

#include "report/reporter.h"
#include "runner/run_options.h"

namespace tracebench {

/// The effective settings, as recorded in the JSON report's "config". Every
/// option that changes the numbers is here (report/compare.cpp lists which).
nlohmann::json settings_to_json(const RunOptions& options);

/// Collects the environment now, with the compute probe run at each thread
/// count of the sweep's `points` (runner/sweep.h) for `models` models each.
/// Leaves the process at the first point's settings (apply_process_settings).
RunContext run_context(const RunOptions& options, const std::vector<RunOptions>& points,
                       size_t models);

}  // namespace tracebench
