#pragma once
// The CLI flags of docs/robustness.md: per-model isolation, --timeout,
// --resume, backend plugins, and the child's --rows-to.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "runner/run_options.h"

namespace tracebench {

/// Adds --timeout, --no-isolation, --resume, --backend-plugin and the hidden
/// --rows-to to `app`, bound to `options` (whose `isolate` becomes true).
void add_robustness_options(CLI::App& app, RunOptions& options);

/// The flags given to `app` that a model's child process must see too, as
/// `--name=value` arguments: everything except the model selection, the
/// backends (the parent passes its own list) and the report flags.
std::vector<std::string> child_arguments(const CLI::App& app);

}  // namespace tracebench
