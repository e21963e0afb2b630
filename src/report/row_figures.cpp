#include "report/row_figures.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "measure/statistics.h"
#include "util/text.h"

namespace tracebench {

namespace {

// The size of a shape's label: 16 for "batch=16" or "dim1=16".
int64_t shape_size(const std::string& label) {
  return std::atoll(label.c_str() + label.find('=') + 1);
}

}  // namespace

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
  // --shape-set batch=...: the calls' batch sizes differ, each drawn about as
  // often as the others, so the set's sizes over their medians.
  if (row.samples_s.empty() || row.shape_latency_ms.empty() ||
      row.shape_latency_ms.begin()->first.rfind("batch=", 0) != 0) {
    return throughput_per_s(row.batch_size, row.streams, row.samples_s);
  }
  double inputs = 0, seconds = 0;
  for (const auto& [label, ms] : row.shape_latency_ms) {
    inputs += static_cast<double>(shape_size(label));
    seconds += ms * 1e-3;
  }
  if (!(seconds > 0)) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(row.streams) * inputs / seconds;
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

std::vector<std::pair<std::string, double>> shape_latencies_by_size(const ResultRow& row) {
  std::vector<std::pair<std::string, double>> shapes(row.shape_latency_ms.begin(),
                                                     row.shape_latency_ms.end());
  std::stable_sort(shapes.begin(), shapes.end(), [&](const auto& a, const auto& b) {
    return shape_size(a.first) < shape_size(b.first);
  });
  return shapes;
}

std::string format_shape_latencies(const ResultRow& row) {
  if (row.shape_latency_ms.empty()) return "";
  std::string text;
  for (const auto& [shape, ms] : shape_latencies_by_size(row)) {
    text += shape + " " + printf_string("%.3f", ms) + " ";
  }
  return text + "ms";
}

std::string shape_latencies_cell(const ResultRow& row) {
  std::vector<std::string> cells;
  for (const auto& [shape, ms] : shape_latencies_by_size(row)) {
    cells.push_back(shape + ":" + printf_string("%.6f", ms));
  }
  return join(cells, ";");
}

bool has_shape_set(const std::vector<ResultRow>& rows) {
  return std::any_of(rows.begin(), rows.end(),
                     [](const ResultRow& row) { return !row.shape_latency_ms.empty(); });
}

const std::vector<std::string>& shape_set_figure_keys() {
  static const std::vector<std::string> keys = {"shape_latency_ms", "graphs", "graph_compile_s"};
  return keys;
}

void read_shape_latencies_cell(ResultRow& row, const std::string& cell) {
  for (const auto& entry : split(cell, ';')) {
    const auto colon = entry.rfind(':');
    if (colon == std::string::npos) continue;
    char* end = nullptr;
    const std::string number = entry.substr(colon + 1);
    const double ms = std::strtod(number.c_str(), &end);
    if (end != number.c_str() && *end == '\0') row.shape_latency_ms[entry.substr(0, colon)] = ms;
  }
}

}  // namespace tracebench
