#pragma once
// The launcher's flags (runner/launcher.h): --cpus, --malloc, --omp-wait and
// --cooldown, which the parent applies to each model's process.

#include <CLI/CLI.hpp>

#include "runner/run_options.h"

namespace tracebench {

void add_launcher_options(CLI::App& app, RunOptions& options);

}  // namespace tracebench
