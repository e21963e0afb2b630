#pragma once
// The one result schema every writer reads: a row per (model, backend, mode).

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "measure/op_profile.h"

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

/// How the eager baseline's own noise warnings are marked, whatever the
/// compared backend is called (it is "eager" too in an A/A run). The compared
/// backend's warnings keep the bare code and start with "<backend>: ".
inline constexpr const char* kBaselineWarningCodePrefix = "eager_";
inline constexpr const char* kBaselineWarningMessagePrefix = "eager baseline: ";

struct ResultRow {
  std::string device = "cpu";
  std::string mode = "eval";       // "eval" or "train", as the dynamo runner prints
  std::string precision = "fp32";  // fp32, bf16 or amp (--bfloat16, --amp)
  std::string model;
  std::string backend;
  std::string chosen;  // the backend `auto` picked and ran; "" for the others
  /// The precision the row's arithmetic ran at: `precision`, or its backend's
  /// own where that lowers it (bf16 on an openvino_bf16 row, int8); "" where
  /// not recorded (older reports).
  std::string ran_precision;
  /// What ran the compiled model, its version and language ("OpenVINO 2026.4.1
  /// (C++)"), and the runtime's settings as "KEY=value" pairs separated by "; ";
  /// empty where nothing was compiled.
  std::string runtime;
  std::string runtime_settings;
  int64_t batch_size = 0;
  int64_t threads = 0;  // intra-op threads it ran with; 0: not recorded (older reports)
  int64_t streams = 1;  // concurrent inference threads (--streams), each timing its requests
  /// The memory allocator of the process that measured it, as found there
  /// (orchestration/launcher.h): glibc, hugetlb, jemalloc or tcmalloc.
  std::string allocator = "glibc";
  std::string status = status::kPass;
  std::string error;  // first line of what went wrong, when status is not pass

  double speedup = 0;  // median(eager) / median(backend); 0 when not measured
  double p_value = std::numeric_limits<double>::quiet_NaN();  // Welch's t-test
  double abs_latency_ms = 0;                                  // backend median per call
  double eager_latency_ms = 0;                                // eager median per call
  double compilation_latency_s = 0;

  std::vector<double> samples_s;        // backend, seconds per call
  std::vector<double> eager_samples_s;  // eager, seconds per call
  std::map<std::string, double> counters;
  /// --shape-set: the median latency of the samples at each shape, by its
  /// label ("batch=4"), ms; empty without a shape set.
  std::map<std::string, double> shape_latency_ms;

  // Uncertainty (docs/statistics.md): 95% percentile-bootstrap interval of
  // the speedup, and the Mann-Whitney U p-value next to Welch's.
  double ci_low = std::numeric_limits<double>::quiet_NaN();
  double ci_high = std::numeric_limits<double>::quiet_NaN();
  double mann_whitney_p = std::numeric_limits<double>::quiet_NaN();
  int64_t iterations_per_run = 1;  // model calls inside one timed sample

  // Peak live tensor memory of one warm call, MB (1e6 bytes), counted by the
  // CPU-allocator wrapper (measure/memory.h); NaN when not measured.
  double eager_peak_mem_mb = std::numeric_limits<double>::quiet_NaN();
  double backend_peak_mem_mb = std::numeric_limits<double>::quiet_NaN();
  double compression_ratio = std::numeric_limits<double>::quiet_NaN();  // eager / backend

  // compilation_latency_s is the compile step alone; this is the first call
  // after it (lazy backends compile there).
  double first_call_latency_s = std::numeric_limits<double>::quiet_NaN();

  // What a row that ran below float32 costs in accuracy, against float32
  // eager over the evaluation set (accuracy_check/evaluation_set.h): the outputs'
  // SQNR in dB and the share of top-1 predictions kept, in percent. NaN on
  // float32 rows and where not measurable (the row's warnings say why).
  double sqnr_db = std::numeric_limits<double>::quiet_NaN();
  double top1_agreement = std::numeric_limits<double>::quiet_NaN();

  // The work of one call and this machine's limit for it (docs/statistics.md):
  // FLOPs of one call at the row's batch size (measure/flops.h counts them),
  // and the compute probe's best GFLOP/s for the arithmetic the backend does.
  // NaN when unknown (training, a model the counter cannot trace, int8).
  double flops = std::numeric_limits<double>::quiet_NaN();
  double peak_gflops = std::numeric_limits<double>::quiet_NaN();

  // --profile: the untimed profiled pass's Chrome trace file and its ops with
  // the most self time (measure/op_profile.h); empty when not profiled.
  std::string profile_trace;
  std::vector<OpSelfTime> top_ops;

  // Noise diagnostics: stable codes (high_cv, slow_start, short_samples) and
  // one-line messages, same order.
  std::vector<std::string> warning_codes;
  std::vector<std::string> warnings;

  /// Adds a warning: its stable code and its one-line message, together.
  void add_warning(std::string code, std::string message) {
    warning_codes.push_back(std::move(code));
    warnings.push_back(std::move(message));
  }

  int64_t samples() const { return static_cast<int64_t>(samples_s.size()); }

  bool passed() const { return status == status::kPass; }
  /// Whether its arithmetic ran below float32 (bf16, amp, int8): the rows
  /// that carry an accuracy cost.
  bool ran_below_float32() const { return !ran_precision.empty() && ran_precision != "fp32"; }
};

/// What tells two rows of one run apart, and matches a row across runs
/// (`compare`, `merge`): model, backend, mode, precision, batch size,
/// threads and allocator (a sweep measures one row per combination of the
/// last three).
using RowKey =
    std::tuple<std::string, std::string, std::string, std::string, int64_t, int64_t, std::string>;
inline RowKey row_key(const ResultRow& row) {
  return {row.model,      row.backend, row.mode,     row.precision,
          row.batch_size, row.threads, row.allocator};
}

}  // namespace tracebench
