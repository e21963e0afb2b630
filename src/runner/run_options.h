#pragma once
// Everything a run is asked to do, as a plain struct with defaults. The CLI
// fills it; validate() turns nonsense into a UsageError before any work.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tracebench/backend.h"

namespace tracebench {

struct RunOptions {
  /// --accuracy checks outputs; otherwise --performance measures speed.
  bool accuracy = false;
  Mode mode = Mode::kInference;
  Precision precision = Precision::kFloat32;
  std::string optimizer = "sgd";  // training only: sgd or adam
  /// Model specs from --only; empty means every built-in model.
  std::vector<std::string> only;
  std::vector<std::string> backends = {"eager"};
  std::vector<std::string> filters;   // -k: keep names matching any (case-insensitive)
  std::vector<std::string> excludes;  // -x: drop names matching any
  std::optional<int64_t> batch_size;
  std::string input_shapes;  // e.g. "1x3x224x224,1x10"
  int64_t repeat = 30;
  int64_t warmup = 3;
  int64_t iterations_per_run = 1;
  bool randomize_input = false;
  std::optional<int64_t> threads;
  std::string device = "cpu";
  std::string output;  // CSV path; empty: no file
  uint64_t seed = 1337;
  std::string weights;  // --weights: a state dict for the built-in model; empty: none
};

/// Throws UsageError naming the fix for any option out of range.
void validate(const RunOptions& options);

}  // namespace tracebench
