#pragma once
// The run flags for measurement and reports, registered on the main option
// table by cli.cpp: --target-ci, --max-time, partitions, and the report flags
// (--ci, --warnings, and one per report file format: --output, --json).

#include <CLI/CLI.hpp>
#include <ostream>

#include "runner/run_options.h"

namespace tracebench {

/// The --help heading of the report flags, which a child process never gets.
inline constexpr const char* kReportsGroup = "Reports";

void add_measurement_and_report_options(CLI::App& app, RunOptions& options);

/// After parsing: the partition from the flags, else from the Slurm array or
/// Kubernetes Indexed Job that started this process (runner/partition_source.h),
/// saying on `err` which it used.
void resolve_partition(const CLI::App& app, RunOptions& options, std::ostream& err);

}  // namespace tracebench
