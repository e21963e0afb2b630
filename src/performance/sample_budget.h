#pragma once
// How many timed samples a model gets: a fixed --repeat, or adaptive stopping
// (--target-ci): a backend stops being sampled once its speedup's bootstrap CI
// half-width is within target x speedup, and the model stops when every
// backend has, or after --max-time seconds of sampling.

#include <chrono>
#include <cstdint>
#include <vector>

#include "settings/run_options.h"

namespace tracebench {

/// Adaptive mode: samples every backend gets before the first CI check, how
/// often the CI is re-checked, and a hard cap on repetitions.
inline constexpr int64_t kAdaptiveMinSamples = 10;
inline constexpr int64_t kAdaptiveCheckEvery = 5;
inline constexpr int64_t kAdaptiveMaxRepetitions = 100000;

class SampleBudget {
 public:
  /// Participant 0 is the eager baseline, the others are backends.
  SampleBudget(const RunOptions& options, size_t participants);

  /// Whether to run another repetition (starts the --max-time clock on first call).
  bool another_repetition();
  /// The turn order for the next repetition: active participants only. In
  /// fixed mode exactly interleaved_schedule(participants, repeat, seed)[rep];
  /// with --sample-order blocked, one participant per repetition: eager's
  /// --repeat turns, then each backend's.
  std::vector<size_t> next_order();
  /// Which of its samples the next turn is for its participant (0, 1, ...):
  /// --randomize-input gives the k-th samples of all participants equal inputs.
  int64_t sample_index() const;
  /// After a repetition: `samples[i]` is participant i's samples so far, or
  /// nullptr when it failed. Marks converged backends inactive (adaptive mode).
  void finish_repetition(const std::vector<const std::vector<double>*>& samples);

  bool adaptive() const { return adaptive_; }

 private:
  bool adaptive_;
  int64_t repeat_;
  double target_;
  double max_seconds_;
  uint64_t seed_;
  size_t participants_;
  int64_t repetition_ = 0;
  std::vector<bool> active_;
  bool blocked_;                            // --sample-order blocked
  std::vector<std::vector<size_t>> block_;  // precomputed turn orders
  int64_t block_start_ = 0;
  bool started_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace tracebench
