#pragma once
// --total-partitions and --partition-id, or the scheduler that started this
// process (orchestration/partition_source.h).

#include <CLI/CLI.hpp>
#include <ostream>

#include "runner/run_options.h"

namespace tracebench {

/// After parsing: the partition from the flags, else from the Slurm array or
/// Kubernetes Indexed Job that started this process, saying on `err` which it
/// used.
void resolve_partition(const CLI::App& app, RunOptions& options, std::ostream& err);

}  // namespace tracebench
