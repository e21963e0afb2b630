#include "report/compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "measure/mann_whitney.h"
#include "measure/statistics.h"
#include "report/sweep_groups.h"
#include "util/text.h"

namespace tracebench {

namespace {

RowKey key_of(const ResultRow& row, bool across_settings) {
  if (across_settings) return {row.model, row.backend, row.mode, "", 0, 0, ""};
  return row_key(row);
}

// A sweep's rows of one model and backend are told apart by their point:
// "resnet18 (batch 8, 2 threads)" (report/sweep_groups.h).
using PointLabels = std::map<RowKey, std::string>;

PointLabels point_labels(const RunReport& base, const RunReport& next) {
  PointLabels labels;
  for (const auto* report : {&base, &next}) {
    for (const auto& group : sweep_groups(report->rows)) {
      if (group.label.empty()) continue;
      for (const auto& row : group.rows) labels[row_key(row)] = group.label;
    }
  }
  return labels;
}

void label_row(RowChange& change, const ResultRow& row, const PointLabels& labels) {
  const auto point = labels.find(row_key(row));
  change.model = point == labels.end() ? row.model : row.model + " (" + point->second + ")";
  change.backend = row.backend;
  change.mode = row.mode;
  change.precision = row.precision;
  change.batch_size = row.batch_size;
}

RowChange measure_change(const ResultRow& base, const ResultRow& next, const RunComparison& c) {
  RowChange change;
  change.base_latency_ms = base.abs_latency_ms;
  change.new_latency_ms = next.abs_latency_ms;
  change.base_speedup = base.speedup;
  change.new_speedup = next.speedup;
  change.base_sqnr_db = base.sqnr_db;
  change.new_sqnr_db = next.sqnr_db;
  if (!base.passed() || !next.passed()) {
    change.verdict = base.passed() ? "newly_failing" : next.passed() ? "fixed" : "failing";
    return change;
  }
  change.latency_change = next.abs_latency_ms / base.abs_latency_ms - 1;
  change.speedup_ratio = next.speedup / base.speedup;
  const double p = mann_whitney_u_test(base.samples_s, next.samples_s).p_value;
  change.p_value = std::isnan(p) ? 1.0 : p;
  const bool significant = change.p_value < c.alpha;
  if (significant && change.latency_change > c.threshold) {
    change.verdict = "regressed";
  } else if (significant && change.latency_change < -c.threshold) {
    change.verdict = "improved";
  } else {
    change.verdict = "unchanged";
  }
  return change;
}

}  // namespace

std::vector<std::string> differing_settings(const RunReport& base, const RunReport& next,
                                            const std::vector<std::string>& settings) {
  std::vector<std::string> differing;
  for (const auto& setting : settings) {
    const auto in_base = base.config.value(setting, nlohmann::json());
    const auto in_next = next.config.value(setting, nlohmann::json());
    if (in_base != in_next) {
      differing.push_back(setting + ": " + in_base.dump() + " -> " + in_next.dump());
    }
  }
  return differing;
}

RunComparison compare_reports(const RunReport& base, const RunReport& next, double threshold,
                              double alpha, bool across_settings) {
  RunComparison comparison;
  comparison.threshold = threshold;
  comparison.alpha = alpha;
  std::map<RowKey, const ResultRow*> new_rows;
  for (const auto& row : next.rows) new_rows[key_of(row, across_settings)] = &row;
  const PointLabels labels = point_labels(base, next);

  std::vector<double> latency_ratios, speedup_ratios;
  for (const auto& row : base.rows) {
    RowChange change;
    auto it = new_rows.find(key_of(row, across_settings));
    if (it == new_rows.end()) {
      change.verdict = "only_base";
    } else {
      change = measure_change(row, *it->second, comparison);
      new_rows.erase(it);
    }
    label_row(change, row, labels);
    if (change.verdict == "regressed" || change.verdict == "newly_failing") {
      ++comparison.regressions;
    }
    if (change.verdict == "improved") ++comparison.improvements;
    if (change.speedup_ratio > 0) {
      latency_ratios.push_back(1 + change.latency_change);
      speedup_ratios.push_back(change.speedup_ratio);
    }
    comparison.changes.push_back(change);
  }
  for (const auto& row : next.rows) {
    if (!new_rows.count(key_of(row, across_settings))) continue;
    RowChange change;
    label_row(change, row, labels);
    change.verdict = "only_new";
    comparison.changes.push_back(change);
  }
  comparison.geomean_latency_ratio = geometric_mean(latency_ratios);
  comparison.geomean_speedup_ratio = geometric_mean(speedup_ratios);
  return comparison;
}

std::string format_comparison(const RunComparison& c) {
  size_t backend_width = 12;
  for (const auto& change : c.changes) {
    backend_width = std::max(backend_width, change.backend.size() + 1);
  }
  // Rows below float32 carry their accuracy cost: a faster int8 row may have
  // paid for it in SQNR, so a reader sees both moves side by side.
  const bool any_sqnr =
      std::any_of(c.changes.begin(), c.changes.end(), [](const RowChange& change) {
        return !std::isnan(change.base_sqnr_db) || !std::isnan(change.new_sqnr_db);
      });
  const auto sqnr = [](double db) {
    return std::isnan(db) ? std::string("-") : printf_string("%.1f", db);
  };
  std::string out = pad_right("model", 28) + pad_right("backend", backend_width) +
                    pad_left("base ms", 11) + pad_left("new ms", 11) + pad_left("change", 9) +
                    pad_left("p", 7) + pad_left("speedup base->new", 20) +
                    (any_sqnr ? pad_left("sqnr dB base->new", 19) : "") + "  verdict\n";
  for (const auto& change : c.changes) {
    const bool measured = change.speedup_ratio > 0;
    out += pad_right(change.model, 28) + pad_right(change.backend, backend_width) +
           pad_left(measured ? printf_string("%.3f", change.base_latency_ms) : "-", 11) +
           pad_left(measured ? printf_string("%.3f", change.new_latency_ms) : "-", 11) +
           pad_left(measured ? printf_string("%+.1f%%", change.latency_change * 100) : "-", 9) +
           pad_left(measured ? printf_string("%.3f", change.p_value) : "-", 7) +
           pad_left(measured ? printf_string("%.3fx", change.base_speedup) + " -> " +
                                   printf_string("%.3fx", change.new_speedup)
                             : "-",
                    20) +
           (any_sqnr ? pad_left(sqnr(change.base_sqnr_db) + " -> " + sqnr(change.new_sqnr_db), 19)
                     : "") +
           "  " + change.verdict + "\n";
  }
  const auto percent = [](double ratio) {
    return std::isnan(ratio) ? std::string("-") : printf_string("%+.1f%%", (ratio - 1) * 100);
  };
  out += "geomean latency change: " + percent(c.geomean_latency_ratio) +
         "   geomean speedup change: " + percent(c.geomean_speedup_ratio) + "\n";
  out += std::to_string(c.regressions) + " regression(s), " + std::to_string(c.improvements) +
         " improvement(s) (latency change beyond " + printf_string("%.0f%%", c.threshold * 100) +
         " with Mann-Whitney p < " + printf_string("%.2f", c.alpha) +
         "; newly failing rows count as regressions)\n";
  return out;
}

}  // namespace tracebench
