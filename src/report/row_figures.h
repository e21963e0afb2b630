#pragma once
// What deployment engineers read besides the median, derived from a row
// (docs/statistics.md): latency percentiles and throughput from its raw
// samples, and how close it runs to this machine's compute limit.

#include <string>
#include <vector>

#include "report/result_row.h"

namespace tracebench {

struct LatencyPercentile {
  const char* name;          // "p99", as warnings and the console say it
  double percent;            // 99
  const char* column;        // "p99_latency": the CSV column and JSON key, ms per call
  const char* html_heading;  // "p99 ms"
};

/// p50, p90, p99 and p99.9 ("p999"), in the order the reports show them.
const std::vector<LatencyPercentile>& latency_percentiles();

/// The backend's nearest-rank `percent` latency per call in ms; NaN when the
/// row has too few samples for it (measure/statistics.h).
double percentile_latency_ms(const ResultRow& row, double percent);

/// Samples (inputs) per second of `streams` streams that each take
/// `samples_s` per call at `batch_size`: streams x batch size / mean time per
/// call. NaN without samples.
double throughput_per_s(int64_t batch_size, int64_t streams, const std::vector<double>& samples_s);

/// The backend's throughput_per_s, all its streams together.
double throughput_per_s(const ResultRow& row);

/// FLOPs per call over the median latency, in GFLOP/s. NaN when either is
/// unknown, or the row did not pass (its latency is then no backend's).
double achieved_gflops(const ResultRow& row);

/// achieved_gflops over the row's peak_gflops: the share of what this machine's
/// best kernel reaches. NaN when either is unknown.
double peak_share(const ResultRow& row);

/// Adds a `few_samples_for_p99_latency` (...) warning, naming the -n it needs, for each
/// percentile the row's sample count leaves empty.
void warn_unsupported_percentiles(ResultRow& row);

}  // namespace tracebench
