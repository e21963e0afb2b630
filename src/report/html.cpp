#include "report/html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "measure/statistics.h"
#include "report/backend_summary.h"
#include "report/console.h"
#include "report/html_sweep_charts.h"
#include "report/op_tables.h"
#include "report/row_figures.h"
#include "report/row_schema.h"
#include "report/svg.h"
#include "report/sweep_groups.h"

namespace tracebench {

namespace {

std::string num(double value) { return svg_number(value); }

std::vector<std::string> models_in_order(const std::vector<ResultRow>& rows) {
  std::vector<std::string> models;
  for (const auto& row : rows) {
    if (std::find(models.begin(), models.end(), row.model) == models.end()) {
      models.push_back(row.model);
    }
  }
  return models;
}

// Horizontal bars: one group per model, one bar per backend, whiskers for the
// 95% CI, a dashed line at 1.0x (eager). `rows` are one sweep point's;
// `backends` all of the report's, so that colours match across charts.
std::string speedup_chart(const std::vector<ResultRow>& rows,
                          const std::vector<std::string>& backends) {
  const auto models = models_in_order(rows);
  double top = 1.0;
  for (const auto& row : rows) {
    if (!row.passed()) continue;
    top = std::max({top, row.speedup, std::isfinite(row.ci_high) ? row.ci_high : 0.0});
  }
  top *= 1.1;
  const double label = 220, width = 520, bar = 14, gap = 10;
  // Room after the longest bar for its label, and for what a row below
  // float32 cost (" int8 sqnr=31.4dB top1=99.2%") where one did.
  const bool any_cost = std::any_of(rows.begin(), rows.end(), [](const ResultRow& row) {
    return row.passed() && !format_precision_cost(row).empty();
  });
  const double right = any_cost ? 230 : 80;
  const double height = models.size() * (backends.size() * bar + gap) + 40;
  auto x = [&](double value) { return label + width * value / top; };
  std::ostringstream svg;
  // The viewBox lets a narrow window scale the chart down (the page's CSS).
  svg << "<svg class=\"speedup-chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
      << num(label + width + right) << "\" height=\"" << num(height) << "\" viewBox=\"0 0 "
      << num(label + width + right) << " " << num(height) << "\" role=\"img\">\n"
      << "<title>Speedup over eager with 95% CI</title>\n";
  double y = 10;
  for (const auto& model : models) {
    svg << "<text x=\"" << num(label - 8) << "\" y=\"" << num(y + backends.size() * bar / 2 + 4)
        << "\" text-anchor=\"end\">" << html_escape(model) << "</text>\n";
    for (const auto& backend : backends) {
      auto row = std::find_if(rows.begin(), rows.end(), [&](const ResultRow& r) {
        return r.model == model && r.backend == backend;
      });
      if (row != rows.end() && row->passed()) {
        svg << "<rect class=\"bar\" x=\"" << num(label) << "\" y=\"" << num(y + 1) << "\" width=\""
            << num(x(row->speedup) - label) << "\" height=\"" << num(bar - 2) << "\" fill=\""
            << backend_color(backends, backend) << "\"><title>" << html_escape(model) << " / "
            << html_escape(backend) << ": " << html_number("%.3fx", row->speedup) << " ["
            << html_number("%.3f", row->ci_low) << ", " << html_number("%.3f", row->ci_high)
            << "]</title></rect>\n";
        if (std::isfinite(row->ci_low) && std::isfinite(row->ci_high)) {
          const double mid = y + bar / 2;
          svg << "<path class=\"whisker\" d=\"M" << num(x(row->ci_low)) << " " << num(mid) << "H"
              << num(x(row->ci_high)) << "M" << num(x(row->ci_low)) << " " << num(mid - 4) << "v8M"
              << num(x(row->ci_high)) << " " << num(mid - 4)
              << "v8\" stroke=\"#222\" fill=\"none\"/>\n";
        }
        svg << "<text x=\""
            << num(x(std::max(row->speedup, std::isfinite(row->ci_high) ? row->ci_high : 0.0)) + 6)
            << "\" y=\"" << num(y + bar - 3) << "\" font-size=\"11\">"
            << html_number("%.3fx", row->speedup) << html_escape(format_precision_cost(*row))
            << "</text>\n";
      } else if (row != rows.end()) {
        svg << "<text x=\"" << num(label + 4) << "\" y=\"" << num(y + bar - 3)
            << "\" font-size=\"11\" fill=\"#c00\">" << html_escape(backend) << ": "
            << html_escape(row->status) << "</text>\n";
      }
      y += bar;
    }
    y += gap;
  }
  svg << "<line x1=\"" << num(x(1)) << "\" y1=\"5\" x2=\"" << num(x(1)) << "\" y2=\"" << num(y)
      << "\" stroke=\"#555\" stroke-dasharray=\"4 3\"/>\n"
      << "<text x=\"" << num(x(1)) << "\" y=\"" << num(y + 14)
      << "\" text-anchor=\"middle\" font-size=\"11\">1.0x (eager)</text>\n";
  for (size_t i = 0; i < backends.size(); ++i) {
    svg << "<rect x=\"" << num(label + i * 110) << "\" y=\"" << num(y + 20)
        << "\" width=\"10\" height=\"10\" fill=\"" << backend_color(backends, backends[i])
        << "\"/><text x=\"" << num(label + i * 110 + 14) << "\" y=\"" << num(y + 29)
        << "\" font-size=\"11\">" << html_escape(backends[i]) << "</text>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

// Every timed sample of eager (grey, top) and the backend (colour, bottom) on
// a shared latency axis; ticks mark the medians.
std::string strip_plot(const ResultRow& row, const std::string& color) {
  std::vector<double> all = row.samples_s;
  all.insert(all.end(), row.eager_samples_s.begin(), row.eager_samples_s.end());
  if (all.empty()) return "";
  const double low = *std::min_element(all.begin(), all.end()) * 1e3;
  const double high = *std::max_element(all.begin(), all.end()) * 1e3;
  const double span = high > low ? high - low : std::max(low, 1e-9);
  const double left = 10, width = 460;
  auto x = [&](double seconds) { return left + width * (seconds * 1e3 - low) / span; };
  std::ostringstream svg;
  svg << "<svg class=\"strip\" xmlns=\"http://www.w3.org/2000/svg\" width=\"560\" height=\"50\">"
      << "<title>" << html_escape(row.model) << " / " << html_escape(row.backend)
      << ": samples (ms)</title>";
  auto dots = [&](const std::vector<double>& samples, double y, const std::string& fill) {
    for (double s : samples) {
      svg << "<circle cx=\"" << num(x(s)) << "\" cy=\"" << num(y) << "\" r=\"2.5\" fill=\"" << fill
          << "\" fill-opacity=\"0.6\"/>";
    }
    if (!samples.empty()) {
      const double m = median(samples);
      svg << "<path d=\"M" << num(x(m)) << " " << num(y - 7) << "v14\" stroke=\"#000\"/>";
    }
  };
  dots(row.eager_samples_s, 12, "#999");
  dots(row.samples_s, 30, color);
  svg << "<text x=\"" << num(left + width + 8) << "\" y=\"16\" font-size=\"10\">eager</text>"
      << "<text x=\"" << num(left + width + 8) << "\" y=\"34\" font-size=\"10\">"
      << html_escape(row.backend) << "</text>"
      << "<text x=\"" << num(left) << "\" y=\"48\" font-size=\"10\">" << html_number("%.3f", low)
      << " ms</text><text x=\"" << num(left + width) << "\" y=\"48\" font-size=\"10\" "
      << "text-anchor=\"end\">" << html_number("%.3f", high) << " ms</text></svg>";
  return svg.str();
}

std::string summary_table(const RunReport& report) {
  std::ostringstream html;
  html << "<table class=\"summary\"><tr><th>backend</th><th>geomean speedup (raw)</th>"
       << "<th>geomean, slowdowns clamped to 1.0</th><th>pass rate</th></tr>\n";
  for (const auto& backend : backends_in_order(report)) {
    const auto summary = summarize_backend(report.rows, backend);
    html << "<tr><td>" << html_escape(backend) << "</td><td>"
         << html_number("%.3fx", summary.geomean_speedup) << "</td><td>"
         << html_number("%.3fx", summary.geomean_speedup_clamped) << "</td><td>" << summary.passed
         << "/" << summary.rows << "</td></tr>\n";
  }
  return html.str() + "</table>\n";
}

// A long text behind a disclosure, so that its row stays one line until a
// reader opens it; nothing when `text` is empty.
std::string disclosure(const std::string& summary, const std::string& html_text) {
  if (html_text.empty()) return "";
  return "<details><summary>" + html_escape(summary) + "</summary><div class=\"long\">" +
         html_text + "</div></details>";
}

// The columns the results table shows before a reader asks for more (its
// checkboxes): what ranks and explains a row, and under --shape-set what it
// measured per shape. The others (memory, first call, percentiles,
// settings) are one click away.
bool shown_by_default(const RowField& field, bool shape_set) {
  static const std::vector<std::string> kHeadings = {
      "batch",  "speedup",       "latency ms", "eager ms", "Welch p", "compile s",
      "chosen", "throughput /s", "peak share", "ran at",   "SQNR dB", "top-1 %"};
  if (std::find(kHeadings.begin(), kHeadings.end(), field.html_heading) != kHeadings.end()) {
    return true;
  }
  const auto& shape_set_keys = shape_set_figure_keys();
  const auto at_a_glance = shape_set_keys.begin() + kShapeSetFiguresAtAGlance;
  return shape_set && std::find(shape_set_keys.begin(), at_a_glance, field.json_key) != at_a_glance;
}

// model, backend and status, then every row field with an HTML heading
// (report/row_schema.h), the samples' strip plot and the warnings. Each
// optional column has a checkbox before the table; CSS alone hides the
// unchecked ones (the report carries no script). Every row is one line:
// errors, warnings and the strip plot open from a disclosure.
std::string results_table(const RunReport& report) {
  const auto backends = backends_in_order(report);
  const bool shape_set = has_shape_set(report.rows);
  std::vector<const RowField*> shown;
  for (const auto& field : row_fields()) {
    if (field.html_heading) shown.push_back(&field);
  }
  std::vector<std::string> headings;
  for (const auto* field : shown) headings.push_back(field->html_heading);
  headings.push_back("sample plot");
  headings.push_back("warnings");
  const auto column_class = [](size_t index) { return "c" + std::to_string(index); };

  std::ostringstream html, style;
  // The checkboxes are the table box's siblings, which CSS's ~ needs.
  html << "<div class=\"results-block\">columns:";
  for (size_t i = 0; i < headings.size(); ++i) {
    const bool checked = i >= shown.size() || shown_by_default(*shown[i], shape_set);
    const std::string id = "show-" + column_class(i);
    html << " <input type=\"checkbox\" id=\"" << id << "\"" << (checked ? " checked" : "")
         << "><label for=\"" << id << "\">" << html_escape(headings[i]) << "</label>";
    style << "#" << id << ":not(:checked)~.scroll ." << column_class(i) << "{display:none}";
  }
  html << "\n<style>" << style.str() << "</style>\n";
  html << "<div class=\"scroll\"><table class=\"results\"><tr><th>model</th><th>backend</th>"
       << "<th>status</th>";
  for (size_t i = 0; i < headings.size(); ++i) {
    html << "<th class=\"" << column_class(i) << "\">" << html_escape(headings[i]) << "</th>";
  }
  html << "</tr>\n";
  for (const auto& row : report.rows) {
    std::string warnings;
    for (const auto& w : row.warnings) warnings += html_escape(w) + "<br>";
    html << "<tr><td>" << html_escape(row.model) << "</td><td>" << html_escape(row.backend)
         << "</td><td>" << html_escape(row.status) << " "
         << disclosure("why", html_escape(row.error)) << "</td>";
    for (size_t i = 0; i < shown.size(); ++i) {
      html << "<td class=\"" << column_class(i) << "\">"
           << (row.passed() ? shown[i]->to_html(row) : "") << "</td>";
    }
    html << "<td class=\"" << column_class(shown.size()) << "\">"
         << (row.passed()
                 ? disclosure("plot", strip_plot(row, backend_color(backends, row.backend)))
                 : "")
         << "</td><td class=\"warn " << column_class(shown.size() + 1) << "\">"
         << disclosure(std::to_string(row.warnings.size()) +
                           (row.warnings.size() == 1 ? " warning" : " warnings"),
                       warnings)
         << "</td></tr>\n";
  }
  return html.str() + "</table></div></div>\n";
}

// --profile's top ops, each model's backends side by side.
std::string op_profile_section(const RunReport& report) {
  const auto tables = top_op_tables(report.rows, backends_in_order(report));
  if (tables.empty()) return "";
  std::ostringstream html;
  html << "<h2>Where the time goes</h2>\n<p>The ops with the most self time in one profiled, "
       << "untimed call per backend (--profile; each trace is loadable in Perfetto).</p>\n";
  for (const auto& table : tables) {
    html << "<h3>" << html_escape(table.title)
         << "</h3>\n<div class=\"scroll\"><table class=\"ops\">";
    for (size_t r = 0; r < table.cells.size(); ++r) {
      html << "<tr>";
      for (const auto& cell : table.cells[r]) {
        html << (r == 0 ? "<th>" : "<td>") << html_escape(cell) << (r == 0 ? "</th>" : "</td>");
      }
      html << "</tr>\n";
    }
    html << "</table></div>\n";
  }
  return html.str();
}

std::string environment_table(const RunReport& report) {
  std::ostringstream html;
  html << "<table class=\"environment\">\n";
  const auto environment = environment_to_json(report.environment);
  for (const auto& [key, value] : environment.items()) {
    if (key == "libtorch_config") continue;
    html << "<tr><th>" << html_escape(key) << "</th><td>"
         << html_escape(value.is_string() ? value.get<std::string>() : value.dump())
         << "</td></tr>\n";
  }
  html << "<tr><th>config</th><td><code>" << html_escape(report.config.dump())
       << "</code></td></tr>"
       << "</table>\n<details><summary>LibTorch build configuration</summary><pre>"
       << html_escape(report.environment.libtorch_config) << "</pre></details>\n";
  return html.str();
}

}  // namespace

std::string render_html(const RunReport& report) {
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
       << "<title>tracebench report</title>\n<style>\n"
       << "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\n"
       << "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
       << "padding:3px 6px;font-size:13px;text-align:right}td:first-child,th:first-child"
       << "{text-align:left}.environment td,.environment th{text-align:left}"
       << ".warn{color:#a60;text-align:left;font-size:11px}svg text{font-family:inherit}\n"
       // The page never scrolls sideways: a table wider than the window
       // scrolls in its own box. The results' rows keep one line each; a
       // disclosure opens below its cell.
       << ".scroll{max-width:100%;overflow-x:auto}.results td{white-space:nowrap}"
       << "details{display:inline-block;vertical-align:top}summary{cursor:pointer;color:#06c}"
       << ".long{white-space:normal;min-width:24em;max-width:48em;text-align:left}"
       << ".results-block{font-size:12px;line-height:1.8}"
       << ".results-block label{margin-right:.6em;white-space:nowrap}"
       << "svg.speedup-chart,svg.sweep-chart{max-width:100%;height:auto}"
       << ".ops td{white-space:nowrap}.environment td{overflow-wrap:anywhere}\n"
       << "</style></head><body>\n<h1>tracebench report</h1>\n<p>" << report.rows.size()
       << " rows, " << html_escape(report.environment.time_utc) << ", "
       << html_escape(report.environment.cpu_model) << ". Speedup = median eager latency / "
       << "median backend latency; whiskers are 95% bootstrap confidence intervals.</p>\n"
       << "<h2>Summary</h2>\n"
       << summary_table(report) << "<h2>Speedup over eager</h2>\n";
  for (const auto& group : sweep_groups(report.rows)) {
    if (!group.label.empty()) html << "<h3>" << html_escape(group.label) << "</h3>\n";
    html << speedup_chart(group.rows, backends_in_order(report));
  }
  html << batch_sweep_charts(report) << "<h2>Results</h2>\n"
       << results_table(report) << op_profile_section(report) << "<h2>Environment</h2>\n"
       << "<div class=\"scroll\">" << environment_table(report) << "</div></body></html>\n";
  return html.str();
}

}  // namespace tracebench
