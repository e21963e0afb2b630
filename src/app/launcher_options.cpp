#include "app/launcher_options.h"

namespace tracebench {

void add_launcher_options(CLI::App& app, RunOptions& options) {
  app.add_option("--cpus", options.cpus,
                 "Bind the run and each model's process to these CPUs, e.g. 0-3,6 "
                 "(sched_setaffinity); --threads then defaults to their number (default: the "
                 "CPUs tracebench was started with)");
  app.add_option(
         "--malloc", options.allocator_sweep,
         "Memory allocator of each model's process: glibc, hugetlb (glibc backing large "
         "blocks with huge pages), jemalloc or tcmalloc (Debian's, preloaded); a comma "
         "list (glibc,jemalloc) measures each, eager included (default: the one the environment "
         "gives: glibc, or what GLIBC_TUNABLES or LD_PRELOAD sets)")
      ->delimiter(',');
  app.add_option("--omp-wait", options.omp_wait,
                 "OpenMP's wait policy in each model's process: passive (idle threads sleep) or "
                 "active (they spin) (default: libgomp's own)");
  app.add_option("--cooldown", options.cooldown_s,
                 "Seconds to rest before each model but the first, so one model's heat and "
                 "clock changes do not carry into the next (default: 0)");
}

}  // namespace tracebench
