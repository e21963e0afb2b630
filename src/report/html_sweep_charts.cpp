#include "report/html_sweep_charts.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

#include "report/row_figures.h"
#include "report/svg.h"
#include "report/sweep_groups.h"
#include "util/text.h"

namespace tracebench {

namespace {

// One line of a chart: (batch size, value) points in batch order.
struct Line {
  std::string name;
  std::string color;
  std::map<int64_t, double> points;
};

constexpr double kWidth = 420, kHeight = 240, kLeft = 60, kRight = 100, kTop = 24, kBottom = 40;

std::string line_chart(const std::string& title, const std::string& unit,
                       const std::vector<Line>& lines) {
  std::vector<int64_t> batches;
  double top = 0;
  for (const auto& line : lines) {
    for (const auto& [batch, value] : line.points) {
      if (std::find(batches.begin(), batches.end(), batch) == batches.end()) {
        batches.push_back(batch);
      }
      top = std::max(top, value);
    }
  }
  std::sort(batches.begin(), batches.end());
  if (batches.empty() || !(top > 0)) return "";
  top *= 1.1;
  const double plot_width = kWidth - kLeft - kRight, plot_height = kHeight - kTop - kBottom;
  // Batch sizes evenly spaced, as labelled categories: 1, 8 and 32 stay readable.
  auto x = [&](int64_t batch) {
    const size_t index = std::find(batches.begin(), batches.end(), batch) - batches.begin();
    return kLeft +
           (batches.size() == 1 ? plot_width / 2 : plot_width * index / (batches.size() - 1));
  };
  auto y = [&](double value) { return kTop + plot_height * (1 - value / top); };
  std::ostringstream svg;
  svg << "<svg class=\"sweep-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
      << svg_number(kWidth) << "\" height=\"" << svg_number(kHeight) << "\" viewBox=\"0 0 "
      << svg_number(kWidth) << " " << svg_number(kHeight) << "\" role=\"img\"><title>"
      << html_escape(title) << "</title>"
      << "<text x=\"" << svg_number(kLeft) << "\" y=\"14\" font-size=\"12\">" << html_escape(title)
      << " (" << html_escape(unit) << ")</text>"
      << "<path d=\"M" << svg_number(kLeft) << " " << svg_number(kTop) << "V"
      << svg_number(kTop + plot_height) << "H" << svg_number(kLeft + plot_width)
      << "\" stroke=\"#555\" fill=\"none\"/>"
      << "<text x=\"" << svg_number(kLeft - 6) << "\" y=\"" << svg_number(kTop + 4)
      << "\" text-anchor=\"end\" font-size=\"10\">" << html_number("%.3g", top) << "</text>"
      << "<text x=\"" << svg_number(kLeft - 6) << "\" y=\"" << svg_number(kTop + plot_height)
      << "\" text-anchor=\"end\" font-size=\"10\">0</text>";
  for (const int64_t batch : batches) {
    svg << "<text x=\"" << svg_number(x(batch)) << "\" y=\"" << svg_number(kTop + plot_height + 14)
        << "\" text-anchor=\"middle\" font-size=\"10\">" << batch << "</text>";
  }
  svg << "<text x=\"" << svg_number(kLeft + plot_width / 2) << "\" y=\"" << svg_number(kHeight - 6)
      << "\" text-anchor=\"middle\" font-size=\"11\">batch size</text>";
  double legend_y = kTop + 8;
  for (const auto& line : lines) {
    if (line.points.empty()) continue;
    std::string path;
    for (const auto& [batch, value] : line.points) {
      path += (path.empty() ? "M" : "L") + svg_number(x(batch)) + " " + svg_number(y(value));
    }
    svg << "<path class=\"sweep-line\" d=\"" << path << "\" stroke=\"" << line.color
        << "\" stroke-width=\"2\" fill=\"none\"/>";
    for (const auto& [batch, value] : line.points) {
      svg << "<circle cx=\"" << svg_number(x(batch)) << "\" cy=\"" << svg_number(y(value))
          << "\" r=\"3\" fill=\"" << line.color << "\"><title>" << html_escape(line.name)
          << ", batch " << batch << ": " << html_number("%.4g", value) << " " << html_escape(unit)
          << "</title></circle>";
    }
    svg << "<rect x=\"" << svg_number(kWidth - kRight + 10) << "\" y=\"" << svg_number(legend_y - 8)
        << "\" width=\"10\" height=\"10\" fill=\"" << line.color << "\"/><text x=\""
        << svg_number(kWidth - kRight + 24) << "\" y=\"" << svg_number(legend_y + 1)
        << "\" font-size=\"10\">" << html_escape(line.name) << "</text>";
    legend_y += 16;
  }
  return svg.str() + "</svg>";
}

// Lines of one model at one thread count: each backend's figure, and eager's
// (from the first row at each batch size: every row re-measures it there).
std::vector<Line> sweep_lines(const std::vector<const ResultRow*>& rows,
                              const std::vector<std::string>& backends, bool latency) {
  Line eager{"eager", "#999", {}};
  std::vector<Line> lines;
  for (const auto& backend : backends) {
    Line line{backend, backend_color(backends, backend), {}};
    for (const ResultRow* row : rows) {
      if (!row->passed()) continue;
      const double eager_value =
          latency ? row->eager_latency_ms
                  : throughput_per_s(row->batch_size, row->streams, row->eager_samples_s);
      if (std::isfinite(eager_value)) eager.points.emplace(row->batch_size, eager_value);
      if (row->backend != backend) continue;
      const double value = latency ? row->abs_latency_ms : throughput_per_s(*row);
      if (std::isfinite(value)) line.points[row->batch_size] = value;
    }
    lines.push_back(std::move(line));
  }
  // A run that lists eager as a backend has its line already.
  if (std::find(backends.begin(), backends.end(), "eager") == backends.end()) {
    lines.insert(lines.begin(), std::move(eager));
  }
  return lines;
}

}  // namespace

std::string batch_sweep_charts(const RunReport& report) {
  if (!sweeps_batch_size(report.rows)) return "";
  const auto backends = backends_in_order(report);
  const bool by_allocator = sweeps_allocator(report.rows);
  // One pair of charts per model, thread count and allocator, in first-seen order.
  using Key = std::tuple<std::string, int64_t, std::string>;
  std::vector<Key> keys;
  std::map<Key, std::vector<const ResultRow*>> rows;
  for (const auto& row : report.rows) {
    const Key key{row.model, row.threads, row.allocator};
    if (!rows.count(key)) keys.push_back(key);
    rows[key].push_back(&row);
  }
  std::ostringstream html;
  html << "<h2>Batch-size sweep</h2>\n";
  for (const auto& key : keys) {
    const auto& [model, threads, allocator] = key;
    const std::string point =
        sweep_label(std::nullopt, threads > 0 ? std::optional<int64_t>(threads) : std::nullopt,
                    by_allocator ? allocator : "");
    const std::string title = model + (point.empty() ? "" : ", " + point);
    html << "<h3>" << html_escape(title) << "</h3>\n<div class=\"scroll\">"
         << line_chart("median latency", "ms", sweep_lines(rows[key], backends, true))
         << line_chart("throughput", "samples/s", sweep_lines(rows[key], backends, false))
         << "</div>\n";
  }
  return html.str();
}

}  // namespace tracebench
