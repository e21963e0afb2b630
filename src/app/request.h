#pragma once
// The request: what the flags asked for, completed once with what only the
// command line and the environment can say, and never edited afterwards. Each
// model's run is resolved from it (settings/model_run.h), not by editing it.

#include <CLI/CLI.hpp>
#include <ostream>

#include "settings/run_options.h"

namespace tracebench {

/// `parsed` (the flags declare_settings bound, just parsed by `app`) with:
/// the flags a model's child process gets (child_args), the settings as the
/// user gave them (requested), and, in the parent, the partition (from the
/// flags, else from the Slurm array or Kubernetes Indexed Job that started
/// this process, saying on `err` which it used) and the allocator this
/// process inherited.
RunOptions complete_request(const CLI::App& app, RunOptions parsed, std::ostream& err);

}  // namespace tracebench
