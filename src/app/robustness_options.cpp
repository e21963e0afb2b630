#include "app/robustness_options.h"

#include <set>

#include "app/report_options.h"

namespace tracebench {

namespace {

// Flags only the parent acts on besides the report flags (which are kept
// from children by their group): which models run, and how they are run.
// A new flag that changes which models run belongs here. A sweep's axes are
// the parent's too: it hands each child one point (runner/isolation.cpp). So
// are the launcher's flags: a child inherits its binding and is started with
// its allocator and wait policy (runner/launcher.h).
const std::set<std::string> kParentOnly = {
    "only",         "backend",    "filter",       "exclude",  "resume",
    "rows-to",      "phase-to",   "no-isolation", "timeout",  "total-partitions",
    "partition-id", "batch-size", "threads",      "malloc",   "cpus",
    "omp-wait",     "cooldown",   "help",         "auto-skip"};

bool parent_only(const CLI::Option& option) {
  return option.get_group() == kReportsGroup || kParentOnly.count(option.get_lnames().front());
}

}  // namespace

void add_robustness_options(CLI::App& app, RunOptions& options) {
  options.isolate = true;
  app.add_option("--timeout", options.timeout_s,
                 "Seconds one model may take (load, compile, measure) in its own process before "
                 "it is killed and reported as `timeout`");
  app.add_flag_callback(
      "--no-isolation", [&options] { options.isolate = false; },
      "Run every model in this process (for debugging): a crash then ends the whole run, "
      "and --timeout does not apply");
  app.add_flag("--resume", options.resume,
               "Keep the rows already in --output, run only the (model, backend) pairs missing, "
               "and append them");
  app.add_option("--backend-plugin", options.backend_plugins,
                 "Shared library or C++ source registering backends with "
                 "TRACEBENCH_REGISTER_BACKEND; repeatable (default: none)");
  // Internal: how a model's child process hands its rows back.
  app.add_option("--rows-to", options.rows_to)->group("");
  app.add_option("--phase-to", options.phase_to)->group("");
  app.add_option("--auto-skip", options.auto_skip)->delimiter(',')->group("");
}

std::vector<std::string> child_arguments(const CLI::App& app) {
  std::vector<std::string> args;
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() == 0 || option->get_lnames().empty()) continue;
    if (parent_only(*option)) continue;
    const std::string& name = option->get_lnames().front();
    if (option->get_type_size_max() == 0) {  // a flag
      for (size_t i = 0; i < option->count(); ++i) args.push_back("--" + name);
    } else {
      for (const auto& value : option->results()) args.push_back("--" + name + "=" + value);
    }
  }
  return args;
}

}  // namespace tracebench
