#include "measure/diagnostics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "measure/statistics.h"

namespace tracebench {

namespace {

std::string format(const char* pattern, double a, double b = 0) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, a, b);
  return buffer;
}

}  // namespace

double coefficient_of_variation(const std::vector<double>& values) {
  if (values.size() < 2) return std::nan("");
  return std::sqrt(sample_variance(values)) / mean(values);
}

std::vector<NoiseWarning> noise_warnings(const std::vector<double>& per_call_seconds,
                                         int64_t iterations_per_run, const NoiseLimits& limits) {
  std::vector<NoiseWarning> warnings;
  const size_t n = per_call_seconds.size();
  if (n == 0) return warnings;

  const double cv = coefficient_of_variation(per_call_seconds);
  if (cv > limits.max_cv) {
    warnings.push_back({"high_cv", format("noisy samples: CV %.1f%% > %.0f%%; quiet the machine, "
                                          "pin --threads, or take more samples",
                                          cv * 100, limits.max_cv * 100)});
  }

  if (n >= 10) {
    const size_t head = std::max<size_t>(1, n / 10);
    const double first = median({per_call_seconds.begin(), per_call_seconds.begin() + head});
    const double rest = median({per_call_seconds.begin() + head, per_call_seconds.end()});
    if (first > limits.slow_start_ratio * rest) {
      warnings.push_back({"slow_start", format("first samples %.2fx slower than the rest: "
                                               "warm-up too short, raise --warmup",
                                               first / rest)});
    }
  }

  const double sample_seconds = median(per_call_seconds) * static_cast<double>(iterations_per_run);
  if (sample_seconds < limits.min_sample_seconds) {
    const double needed = std::ceil(limits.min_sample_seconds / median(per_call_seconds));
    warnings.push_back(
        {"short_samples", format("samples of %.0f us are under 1 ms and timer-bound; raise "
                                 "--iterations-per-run to %.0f or more",
                                 sample_seconds * 1e6, needed)});
  }
  return warnings;
}

}  // namespace tracebench
