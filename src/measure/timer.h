#pragma once
// Times one sample: `iterations` calls back to back on a monotonic clock.

#include <chrono>
#include <cstdint>

namespace tracebench {

/// Seconds per call, averaged over `iterations` consecutive calls of `call`.
template <typename Call>
double time_per_call(Call&& call, int64_t iterations) {
  const auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < iterations; ++i) call();
  const auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(stop - start).count() / static_cast<double>(iterations);
}

}  // namespace tracebench
