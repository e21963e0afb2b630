#include "settings/setting_field_builders.h"

namespace tracebench {

using namespace setting_builders;

std::vector<SettingField> process_settings() {
  return {
      // What a run saves beside its rows.
      {"save_optimized",
       {{"--save-optimized",
         "Write each measured backend's compiled model as TorchScript, loadable by "
         "torch.jit.load: FILE.pt for one model and backend, else a directory of "
         "MODEL.BACKEND.pt files; auto saves its winner (default: nothing saved)",
         bound(&RunOptions::save_optimized)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::save_optimized)},
      {"save_outputs",
       {{"--save-outputs",
         "Write what eager and each backend returned for the first input set (of --inputs, "
         "else the example inputs) as DIR/MODEL.BACKEND.pt, for Python's torch.load: a dict by "
         "output name where the model names its outputs (default: nothing saved)",
         bound(&RunOptions::save_outputs_dir)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::save_outputs_dir)},
      {"profile",
       {{"--profile",
         "After sampling, profile one more call per backend (LibTorch's op profiler, not "
         "timed): a Chrome trace DIR/MODEL.BACKEND.json for Perfetto, and the top 15 ops by "
         "self time in the JSON report (default: no profile)",
         bound(&RunOptions::profile_dir)}},
       kEachChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::profile_dir)},

      // Robustness (docs/robustness.md).
      {"timeout_s",
       {{"--timeout",
         "Seconds one model may take (load, compile, measure) in its own process before it is "
         "killed and reported as `timeout`",
         bound(&RunOptions::timeout_s)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::timeout_s)},
      {"isolated",
       {{"--no-isolation",
         "Run every model in this process (for debugging): a crash then ends the whole run, and "
         "--timeout does not apply",
         sets(&RunOptions::isolate, false)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::isolate)},
      {"resume",
       {{"--resume",
         "Keep the rows already in --output, run only the (model, backend) pairs missing, and "
         "append them",
         bound(&RunOptions::resume)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::resume)},
      {"backend_plugins",
       {{"--backend-plugin",
         "Shared library or C++ source registering backends with TRACEBENCH_REGISTER_BACKEND; "
         "repeatable (default: none)",
         bound(&RunOptions::backend_plugins)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::backend_plugins)},
      {nullptr,
       {{"--rows-to", "", internal(&RunOptions::rows_to)}},
       kEachChild,
       kSameNumbers,
       kOneValue,
       nullptr},
      {nullptr,
       {{"--phase-to", "", internal(&RunOptions::phase_to)}},
       kEachChild,
       kSameNumbers,
       kOneValue,
       nullptr},

      // The launcher (orchestration/launcher.h): the parent starts each model's process with these.
      {"cpus",
       {{"--cpus",
         "Bind the run and each model's process to these CPUs, e.g. 0-3,6 (sched_setaffinity); "
         "--threads then defaults to their number (default: the CPUs tracebench was started "
         "with)",
         bound(&RunOptions::cpus)}},
       kParent,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::cpus)},
      {"malloc",
       {{"--malloc",
         "Memory allocator of each model's process: glibc, hugetlb (glibc backing large blocks "
         "with huge pages), jemalloc or tcmalloc (Debian's, preloaded) (default: the one the "
         "environment gives: glibc, or what GLIBC_TUNABLES or LD_PRELOAD sets)",
         bound(&RunOptions::allocator_sweep)}},
       kParent,
       kChangesNumbers,
       kSweepable,
       [](const RunOptions& o) {
         return swept_or_single(o.allocator_sweep, std::optional(o.inherited_allocator));
       }},
      {"omp_wait",
       {{"--omp-wait",
         "OpenMP's wait policy in each model's process: passive (idle threads sleep) or active "
         "(they spin) (default: libgomp's own)",
         bound(&RunOptions::omp_wait)}},
       kParent,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::omp_wait)},
      {"cooldown_s",
       {{"--cooldown",
         "Seconds to rest before each model but the first, so one model's heat and clock "
         "changes do not carry into the next (default: 0)",
         bound(&RunOptions::cooldown_s)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::cooldown_s)},
  };
}

}  // namespace tracebench
