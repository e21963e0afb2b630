#include "report/markdown.h"

#include "report/console.h"
#include "report/op_tables.h"
#include "report/row_figures.h"
#include "report/row_schema.h"
#include "report/sweep_groups.h"

namespace tracebench {

namespace {

// A cell holds no line break, and a | would end it early.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else {
      out += c == '\n' ? ' ' : c;
    }
  }
  return out;
}

// The first column left-aligned (names), the others right-aligned (figures).
std::string markdown_table(const std::vector<std::vector<std::string>>& table) {
  std::string out;
  for (size_t r = 0; r < table.size(); ++r) {
    out += "|";
    for (const auto& text : table[r]) out += " " + cell(text) + " |";
    out += "\n";
    if (r == 0) {
      out += "|";
      for (size_t c = 0; c < table[r].size(); ++c) out += c == 0 ? "---|" : "---:|";
      out += "\n";
    }
  }
  return out;
}

// The figures a pull request's reader compares, by JSON key (report/row_schema.h).
constexpr const char* kRowFigures[] = {"speedup",          "ci_low",      "abs_latency_ms",
                                       "eager_latency_ms", "p50_latency", "p90_latency",
                                       "p99_latency",      "throughput",  "peak_share"};

std::vector<std::vector<std::string>> row_table(const RunReport& report) {
  std::vector<const RowField*> figures;
  for (const char* key : kRowFigures) figures.push_back(&row_field(key));
  if (has_shape_set(report.rows)) {
    for (const auto& key : shape_set_figure_keys()) figures.push_back(&row_field(key));
  }
  std::vector<std::vector<std::string>> table = {
      {"model", "backend", "batch", "threads", "status"}};
  for (const auto* field : figures) table[0].push_back(field->html_heading);
  for (const auto& row : report.rows) {
    std::vector<std::string> line = {
        row.model, row.backend, std::to_string(row.batch_size), std::to_string(row.threads),
        row.error.empty() ? row.status : row.status + ": " + row.error};
    for (const auto* field : figures) line.push_back(row.passed() ? field->to_html(row) : "");
    table.push_back(line);
  }
  return table;
}

}  // namespace

std::string render_markdown(const RunReport& report) {
  std::string out = "## tracebench: " + std::to_string(report.rows.size()) + " rows, " +
                    report.environment.time_utc + ", " + report.environment.cpu_model + "\n\n";
  out += "Speedup over eager (median eager latency / median backend latency):\n\n";
  for (const auto& group : sweep_groups(report.rows)) {
    if (!group.label.empty()) out += "**" + group.label + "**\n\n";
    out += markdown_table(grid_table_cells(group.rows, backends_in_order(report))) + "\n";
  }
  out += markdown_table(row_table(report));
  for (const auto& table : top_op_tables(report.rows, backends_in_order(report))) {
    out += "\n**Top ops by self time: " + table.title + "**\n\n" + markdown_table(table.cells);
  }
  return out;
}

}  // namespace tracebench
