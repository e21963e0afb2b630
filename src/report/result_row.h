#pragma once
// The one result schema every writer reads: a row per (model, backend, mode).

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace tracebench {

/// Row statuses (the dynamo runner's vocabulary).
namespace status {
inline constexpr const char* kPass = "pass";
inline constexpr const char* kFailToRun = "fail_to_run";
inline constexpr const char* kEagerFailToRun = "eager_fail_to_run";
inline constexpr const char* kModelFailToLoad = "model_fail_to_load";
// From an isolated run (docs/robustness.md): the model's child process died.
inline constexpr const char* kCrash = "crash";      // a signal (SIGSEGV, SIGABRT, ...)
inline constexpr const char* kOom = "OOM";          // out of memory, or SIGKILL by the kernel
inline constexpr const char* kTimeout = "timeout";  // ran past --timeout and was killed
inline constexpr const char* kFailAccuracy = "fail_accuracy";
inline constexpr const char* kEagerTwoRunsDiffer = "eager_two_runs_differ";
inline constexpr const char* kUnsupported = "unsupported";  // e.g. ofi with --training
}  // namespace status

struct ResultRow {
  std::string device = "cpu";
  std::string mode = "eval";  // "eval" or "train", as the dynamo runner prints
  std::string model;
  std::string backend;
  int64_t batch_size = 0;
  std::string status = status::kPass;
  std::string error;  // first line of what went wrong, when status is not pass

  double speedup = 0;  // median(eager) / median(backend); 0 when not measured
  double p_value = std::numeric_limits<double>::quiet_NaN();  // Welch's t-test
  double abs_latency_ms = 0;    // backend median per call
  double eager_latency_ms = 0;  // eager median per call
  double compilation_latency_s = 0;

  std::vector<double> samples_s;        // backend, seconds per call
  std::vector<double> eager_samples_s;  // eager, seconds per call
  std::map<std::string, double> counters;

  bool passed() const { return status == status::kPass; }
};

}  // namespace tracebench
