#pragma once
// Sweeps (llama-bench's comma lists): `--batch-size 1,8 --threads 1,2`
// measures every combination, and `--malloc glibc,jemalloc` each allocator.
// Each combination is a point (settings/run_point.h): one batch size, one
// thread count and one allocator. The suite runs every model at every point
// with eager again, as a speedup compares two backends only at equal settings.

#include <string>
#include <vector>

#include "settings/run_options.h"
#include "settings/run_point.h"

namespace tracebench {

/// The points of `options`' sweep, allocators outer, then batch sizes, then
/// thread counts; one point when nothing is swept. An axis the user left
/// out takes its default: the model's batch size, as many threads as --cpus
/// names (else LibTorch's count when the process started), the inherited
/// allocator.
std::vector<RunPoint> sweep_points(const RunOptions& options);

/// The thread counts the points take, as sweep_points gives them: the
/// recorded config's effective value.
std::vector<int64_t> thread_counts(const RunOptions& options);

/// What tells `point` apart from the sweep's other points ("batch 8, 2
/// threads, jemalloc", only the swept axes); "" when the run is not a sweep.
std::string sweep_point_label(const RunPoint& point, const RunOptions& options);

/// Throws UsageError naming the fix for a swept value below 1 or given twice.
void validate_sweep(const RunOptions& options);

}  // namespace tracebench
