#pragma once
// Noise diagnostics over one backend's timed samples: reasons not to trust a
// number, each with the fix. Pure functions; the runner prints and records them.

#include <cstdint>
#include <string>
#include <vector>

namespace tracebench {

struct NoiseLimits {
  double max_cv = 0.05;              // stddev / mean above this: "noisy"
  double slow_start_ratio = 1.3;     // first tenth's median vs the rest's median
  double min_sample_seconds = 1e-3;  // one timed sample shorter than this: timer-bound
};

struct NoiseWarning {
  std::string code;     // stable key for CSV/JSON: high_cv, slow_start, short_samples
  std::string message;  // one line for a person, naming the fix
};

/// Coefficient of variation (sample stddev / mean). NaN for fewer than 2 values.
double coefficient_of_variation(const std::vector<double>& values);

/// Warnings for `per_call_seconds` (one value per timed sample, each the mean
/// of `iterations_per_run` calls). Checks: CV above max_cv (needs 2 samples);
/// the first max(1, n/10) samples' median above slow_start_ratio times the
/// rest's (needs 10 samples: warm-up too short); the median sample
/// (per-call time x iterations_per_run) under min_sample_seconds.
std::vector<NoiseWarning> noise_warnings(const std::vector<double>& per_call_seconds,
                                         int64_t iterations_per_run,
                                         const NoiseLimits& limits = {});

}  // namespace tracebench
