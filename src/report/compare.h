#pragma once
// `tracebench compare base.json new.json`: what changed between two runs, per
// (model, backend, mode, precision, batch size), and whether it is a
// regression a CI gate should fail. Runs measured under different settings
// (precision, threads, ...) are not comparable unless the user says so.
//
// Per matched row: the backend's median latency change new/base - 1, its
// Mann-Whitney p-value over the two runs' raw backend samples, and the ratio
// of speedups new/base (robust to a machine that is slower as a whole). A row
// is a regression when its latency rose by more than `threshold` with
// p < alpha, or when it passed in base and fails in new.

#include <limits>
#include <string>
#include <vector>

#include "report/json.h"

namespace tracebench {

struct RowChange {
  std::string model, backend, mode, precision;
  int64_t batch_size = 0;
  std::string verdict;  // regressed, improved, unchanged, newly_failing, fixed, failing, only_base,
                        // only_new
  double base_latency_ms = 0, new_latency_ms = 0;
  double latency_change = 0;  // new / base - 1
  double p_value = 1;         // Mann-Whitney U on backend samples
  double base_speedup = 0, new_speedup = 0;
  double speedup_ratio = 0;  // new / base
  /// The rows' accuracy cost below float32 (ResultRow::sqnr_db); NaN where none.
  double base_sqnr_db = std::numeric_limits<double>::quiet_NaN();
  double new_sqnr_db = std::numeric_limits<double>::quiet_NaN();
};

struct RunComparison {
  std::vector<RowChange> changes;
  double geomean_latency_ratio = 0;  // over rows measured in both runs
  double geomean_speedup_ratio = 0;
  int regressions = 0;
  int improvements = 0;
  double threshold = 0.05;
  double alpha = 0.05;
};

/// The `settings` (config keys: those that change the numbers,
/// settings/setting_fields.h) that differ between the two reports' configs, each
/// as "name: base -> new" (e.g. "precision: fp32 -> bf16").
std::vector<std::string> differing_settings(const RunReport& base, const RunReport& next,
                                            const std::vector<std::string>& settings);

/// Matches rows on (model, backend, mode, precision, batch size); with
/// `across_settings` on (model, backend, mode) only, so that runs made under
/// different settings (the user's --allow-config-change) line up.
RunComparison compare_reports(const RunReport& base, const RunReport& next, double threshold,
                              double alpha = 0.05, bool across_settings = false);

/// A table, the geomean changes and a verdict line.
std::string format_comparison(const RunComparison& comparison);

}  // namespace tracebench
