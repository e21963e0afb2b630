#pragma once
// The conditions a model's process is started under, as PyTorch's CPU
// launcher (torch.backends.xeon.run_cpu) sets them: the cores it may run on
// (--cpus), its memory allocator (--malloc) and OpenMP's wait policy
// (--omp-wait). The allocator and the wait policy are read once, when a
// process starts, so they reach each model's child process through its
// environment; the binding is the harness's own and every child inherits it.

#include <string>
#include <vector>

#include "settings/run_options.h"
#include "settings/run_point.h"

namespace tracebench {

/// "0-3,6" as CPU numbers, ascending. Throws UsageError naming the fix for
/// text that is not such a list, and for a CPU this process may not run on.
std::vector<int> parse_cpu_list(const std::string& text);

/// Binds this process to --cpus, so that what it measures and every child it
/// starts run there (the points' thread count follows: settings/sweep.h).
/// Does nothing without --cpus.
void bind_to_cpus(const RunOptions& options);

/// What a model's child process adds to its environment ("NAME=value") for
/// the allocator of `point` and the run's wait policy. Throws UsageError
/// naming the Debian package when the allocator's library is not installed.
std::vector<std::string> child_environment(const RunOptions& options, const RunPoint& point);

/// The allocator this process runs with, as it is: jemalloc or tcmalloc when
/// its library is mapped, hugetlb when glibc's tunable asks for huge pages,
/// else glibc.
std::string allocator_in_use();

/// Throws UsageError naming the fix for launcher options that cannot apply:
/// an unknown allocator, or an allocator or wait policy without the child
/// processes they are applied to (--no-isolation).
void validate_launcher(const RunOptions& options);

}  // namespace tracebench
