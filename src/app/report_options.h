#pragma once
// The run flags for measurement and reports, registered on the main option
// table by cli.cpp: --target-ci, --max-time, --ci, --json, partitions.

#include <CLI/CLI.hpp>

#include "runner/run_options.h"

namespace tracebench {

void add_measurement_and_report_options(CLI::App& app, RunOptions& options);

}  // namespace tracebench
