#pragma once
// What deployment engineers read besides the median, derived from a row
// (docs/statistics.md): latency percentiles and throughput from its raw
// samples, and how close it runs to this machine's compute limit.

#include <string>
#include <utility>
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

/// The backend's throughput_per_s, all its streams together. Under
/// --shape-set batch=..., the set's batch sizes over their medians (each size
/// is drawn about as often).
double throughput_per_s(const ResultRow& row);

/// FLOPs per call over the median latency, in GFLOP/s. NaN when either is
/// unknown, or the row did not pass (its latency is then no backend's).
double achieved_gflops(const ResultRow& row);

/// achieved_gflops over the row's peak_gflops: the share of what this machine's
/// best kernel reaches. NaN when either is unknown.
double peak_share(const ResultRow& row);

/// --shape-set's medians (ResultRow::shape_latency_ms), smallest shape first:
/// labels are "batch=16", ordered by size, not as text.
std::vector<std::pair<std::string, double>> shape_latencies_by_size(const ResultRow& row);

/// The same for people: "batch=2 0.010 batch=16 0.020 ms"; "" without a
/// shape set, as the console shows it.
std::string format_shape_latencies(const ResultRow& row);

/// The same for the CSV, to be read back: "batch=2:0.010400;batch=16:0.020400".
std::string shape_latencies_cell(const ResultRow& row);

/// Whether any row was measured under --shape-set: reports then show its
/// columns among the first.
bool has_shape_set(const std::vector<ResultRow>& rows);

/// Those columns by JSON key (report/row_schema.h): each shape's median, and
/// the graphs a backend compiled or traced for the shapes, with their time.
/// The first `kShapeSetFiguresAtAGlance` are what a table shows before a
/// reader asks for more (the HTML's checked columns); the compile time is
/// one click away.
const std::vector<std::string>& shape_set_figure_keys();
inline constexpr size_t kShapeSetFiguresAtAGlance = 2;

/// Reads shape_latencies_cell's text into the row; ignores what it cannot read.
void read_shape_latencies_cell(ResultRow& row, const std::string& cell);

/// Adds a `few_samples_for_p99_latency` (...) warning, naming the -n it needs, for each
/// percentile the row's sample count leaves empty.
void warn_unsupported_percentiles(ResultRow& row);

}  // namespace tracebench
