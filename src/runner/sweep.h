#pragma once
// Sweeps (llama-bench's comma lists): `--batch-size 1,8 --threads 1,2`
// measures every combination, and `--malloc glibc,jemalloc` each allocator.
// Each combination is a point: the run's options with one batch size, one
// thread count and one allocator. The suite runs every model at
// every point with eager again, as a speedup compares two backends only at
// equal settings.

#include <string>
#include <vector>

#include "runner/run_options.h"

namespace tracebench {

/// The points of `options`' sweep, allocators outer, then batch sizes, then
/// thread counts;
/// one point (the options as they are) when nothing is swept.
std::vector<RunOptions> sweep_points(const RunOptions& options);

/// What tells `point` apart from the sweep's other points ("batch 8, 2
/// threads, jemalloc", only the swept axes); "" when the run is not a sweep.
std::string sweep_point_label(const RunOptions& point, const RunOptions& options);

/// Throws UsageError naming the fix for a swept value below 1 or given twice.
void validate_sweep(const RunOptions& options);

}  // namespace tracebench
