#include "report/row_figures.h"

#include <cmath>
#include <limits>

#include "measure/statistics.h"

namespace tracebench {

const std::vector<LatencyPercentile>& latency_percentiles() {
  static const std::vector<LatencyPercentile> percentiles = {
      {"p50", 50, "p50_latency", "p50 ms"},
      {"p90", 90, "p90_latency", "p90 ms"},
      {"p99", 99, "p99_latency", "p99 ms"},
      {"p99.9", 99.9, "p999_latency", "p99.9 ms"}};
  return percentiles;
}

double percentile_latency_ms(const ResultRow& row, double percent) {
  return nearest_rank_percentile(row.samples_s, percent) * 1e3;
}

double throughput_per_s(int64_t batch_size, int64_t streams, const std::vector<double>& samples_s) {
  const double seconds_per_call = mean(samples_s);
  if (!(seconds_per_call > 0)) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(streams * batch_size) / seconds_per_call;
}

double throughput_per_s(const ResultRow& row) {
  return throughput_per_s(row.batch_size, row.streams, row.samples_s);
}

double achieved_gflops(const ResultRow& row) {
  if (!row.passed() || !(row.abs_latency_ms > 0)) return std::numeric_limits<double>::quiet_NaN();
  return row.flops / (row.abs_latency_ms * 1e-3) / 1e9;
}

double peak_share(const ResultRow& row) { return achieved_gflops(row) / row.peak_gflops; }

void warn_unsupported_percentiles(ResultRow& row) {
  if (row.samples_s.empty()) return;
  for (const auto& percentile : latency_percentiles()) {
    const size_t needed = samples_for_percentile(percentile.percent);
    if (row.samples_s.size() >= needed) continue;
    row.add_warning(std::string("few_samples_for_") + percentile.column,
                    row.backend + ": " + percentile.name + " needs at least " +
                        std::to_string(needed) + " samples, this row has " +
                        std::to_string(row.samples_s.size()) + "; run with -n " +
                        std::to_string(needed));
  }
}

}  // namespace tracebench
