#include "report/console.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "measure/statistics.h"
#include "report/backend_summary.h"
#include "report/row_figures.h"
#include "report/sweep_groups.h"
#include "util/text.h"

namespace tracebench {

namespace {
using Table = std::vector<std::vector<std::string>>;
}  // namespace

std::string render_text_grid(const Table& table, const std::vector<bool>& left_aligned) {
  std::vector<size_t> widths(table.front().size(), 0);
  for (const auto& row : table) {
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  auto rule = [&](char fill) {
    std::string line = "+";
    for (size_t width : widths) line += std::string(width + 2, fill) + "+";
    return line + "\n";
  };
  std::string out = rule('-');
  for (size_t r = 0; r < table.size(); ++r) {
    std::string line = "|";
    for (size_t c = 0; c < table[r].size(); ++c) {
      const auto& cell = table[r][c];
      const bool left = c < left_aligned.size() ? left_aligned[c] : c == 0;
      line += " " + (left ? pad_right(cell, widths[c]) : pad_left(cell, widths[c])) + " |";
    }
    out += line + "\n" + rule(r == 0 ? '=' : '-');
  }
  return out;
}

std::string format_speedup(const ResultRow& row, bool with_ci) {
  if (!row.passed()) return row.error.empty() ? row.status : row.status + ": " + row.error;
  std::string interval;
  if (with_ci && std::isfinite(row.ci_low) && std::isfinite(row.ci_high)) {
    interval =
        " [" + printf_string("%.2f", row.ci_low) + ", " + printf_string("%.2f", row.ci_high) + "]";
  }
  return printf_string("%.3fx", row.speedup) + interval +
         " p=" + printf_string("%.2f", row.p_value) + format_precision_cost(row);
}

std::string backend_label(const ResultRow& row) {
  return row.chosen.empty() ? row.backend : row.backend + "(" + row.chosen + ")";
}

std::string format_precision_cost(const ResultRow& row) {
  if (!row.ran_below_float32()) return "";
  std::string text = " " + row.ran_precision;
  if (!std::isnan(row.sqnr_db)) text += printf_string(" sqnr=%.1fdB", row.sqnr_db);
  if (!std::isnan(row.top1_agreement)) text += printf_string(" top1=%.1f%%", row.top1_agreement);
  return text;
}

namespace {

std::string line_prefix(const ResultRow& row, size_t backend_width, const std::string& point) {
  const std::string model = point.empty() ? row.model : row.model + " (" + point + ")";
  std::string line =
      pad_right(row.device, 4) + " " + pad_right(row.mode, 5) + " " + pad_right(model, 34) + " ";
  if (backend_width > 0) line += pad_right(backend_label(row), backend_width) + " ";
  return line;
}

// With no backend column, auto's pick follows the figures: " (auto(xnnpack))".
std::string chosen_suffix(const ResultRow& row, size_t backend_width) {
  return backend_width == 0 && !row.chosen.empty() ? " (" + backend_label(row) + ")" : "";
}

}  // namespace

size_t backend_column_width(const std::vector<std::string>& backends) {
  if (backends.size() <= 1) return 0;
  size_t width = 12;
  // auto's rows name their pick: room for its longest, "auto(int8_dynamic)".
  for (const auto& backend : backends) {
    width = std::max(width, backend == "auto" ? std::strlen("auto(int8_dynamic)") : backend.size());
  }
  return width;
}

std::string format_result_line(const ResultRow& row, size_t backend_width, bool with_ci,
                               const std::string& point) {
  return line_prefix(row, backend_width, point) + format_speedup(row, with_ci) +
         chosen_suffix(row, backend_width);
}

std::string format_latency_percentiles(const ResultRow& row) {
  std::string text;
  for (const auto& percentile : latency_percentiles()) {
    const double ms = percentile_latency_ms(row, percentile.percent);
    text += std::string(percentile.name) + " " +
            (std::isnan(ms) ? std::string("-") : printf_string("%.2f", ms)) + " ";
  }
  const double throughput = throughput_per_s(row);
  return text + "ms, " +
         (std::isnan(throughput) ? std::string("-") : printf_string("%.1f", throughput)) + "/s";
}

std::string format_accuracy_line(const ResultRow& row, size_t backend_width,
                                 const std::string& point) {
  return line_prefix(row, backend_width, point) +
         (row.error.empty() ? row.status : row.status + ": " + row.error) +
         chosen_suffix(row, backend_width);
}

std::string format_pass_rate(const std::vector<ResultRow>& rows) {
  size_t passed = 0;
  for (const auto& row : rows) passed += row.passed() ? 1 : 0;
  return "accuracy: " + std::to_string(passed) + "/" + std::to_string(rows.size()) + " pass";
}

std::vector<std::vector<std::string>> grid_table_cells(const std::vector<ResultRow>& rows,
                                                       const std::vector<std::string>& backends) {
  Table table;
  table.push_back({"Model"});
  for (const auto& backend : backends) table.front().push_back(backend);

  std::vector<std::string> models;
  std::map<std::pair<std::string, std::string>, const ResultRow*> cells;
  for (const auto& row : rows) {
    if (std::find(models.begin(), models.end(), row.model) == models.end()) {
      models.push_back(row.model);
    }
    cells[{row.model, row.backend}] = &row;
  }
  for (const auto& model : models) {
    std::vector<std::string> line = {model};
    for (const auto& backend : backends) {
      auto it = cells.find({model, backend});
      if (it == cells.end()) {
        line.push_back("-");
      } else if (it->second->passed()) {
        line.push_back(printf_string("%.3f", it->second->speedup) +
                       format_precision_cost(*it->second));
      } else {
        line.push_back(it->second->status);
      }
    }
    table.push_back(line);
  }
  std::vector<std::string> geomean = {"geomean"}, clamped = {"geomean (clamped)"},
                           pass_rate = {"pass rate"};
  const auto figure = [](double value) {
    return std::isnan(value) ? std::string("-") : printf_string("%.3f", value);
  };
  for (const auto& backend : backends) {
    const auto summary = summarize_backend(rows, backend);
    geomean.push_back(figure(summary.geomean_speedup));
    clamped.push_back(figure(summary.geomean_speedup_clamped));
    // Percent only: a cell as narrow as a speedup keeps the grid's columns.
    pass_rate.push_back(
        printf_string("%.0f%%", summary.rows ? 100.0 * summary.passed / summary.rows : 0.0));
  }
  table.push_back(geomean);
  table.push_back(clamped);
  table.push_back(pass_rate);
  return table;
}

namespace {

// Models x backends: each passing row's peak_share, "-" where it has none.
// Empty when no row has one (accuracy, training, int8 only, older reports).
Table peak_share_cells(const std::vector<ResultRow>& rows,
                       const std::vector<std::string>& backends) {
  Table table = {{"Model"}};
  for (const auto& backend : backends) table.front().push_back(backend);
  bool any = false;
  for (const auto& row : rows) {
    auto line = std::find_if(table.begin() + 1, table.end(),
                             [&](const auto& cells) { return cells.front() == row.model; });
    if (line == table.end()) {
      table.push_back(std::vector<std::string>(backends.size() + 1, "-"));
      table.back().front() = row.model;
      line = table.end() - 1;
    }
    const auto column = std::find(backends.begin(), backends.end(), row.backend);
    const double share = peak_share(row);
    if (column == backends.end() || std::isnan(share)) continue;
    (*line)[1 + (column - backends.begin())] = printf_string("%.2f", share);
    any = true;
  }
  return any ? table : Table{};
}

}  // namespace

std::string format_grid_table(const std::vector<ResultRow>& rows,
                              const std::vector<std::string>& backends) {
  std::string out;
  for (const auto& group : sweep_groups(rows)) {
    if (!group.label.empty()) out += (out.empty() ? "" : "\n") + group.label + ":\n";
    out += render_text_grid(grid_table_cells(group.rows, backends));
    const Table shares = peak_share_cells(group.rows, backends);
    if (!shares.empty()) {
      out += "peak share (GFLOP/s over this machine's probed peak; 1.00 is its limit):\n" +
             render_text_grid(shares);
    }
  }
  return out;
}

}  // namespace tracebench
