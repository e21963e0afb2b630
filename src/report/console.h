#pragma once
// What a person reads on the terminal: the seed's per-row line and the grid.

#include <string>
#include <vector>

#include "report/result_row.h"

namespace tracebench {

/// `table` (header row first) as Python's `tabulate(tablefmt="grid")` renders
/// it, as in the seed's table, `=` under the header. Column c is left-aligned
/// where `left_aligned[c]` says so; beyond it, the first column is and the
/// others (figures) are right-aligned.
std::string render_text_grid(const std::vector<std::vector<std::string>>& table,
                             const std::vector<bool>& left_aligned = {});

/// "auto(xnnpack)" for auto's row: the backend it picked and ran; the backend
/// for the others.
std::string backend_label(const ResultRow& row);

/// "1.002x p=0.83" for a measured row, the status (and error) otherwise.
/// With `with_ci` and a valid interval: "1.502x [1.48, 1.53] p=0.00".
std::string format_speedup(const ResultRow& row, bool with_ci = false);

/// " int8 sqnr=31.4dB top1=99.2%" for a row that ran below float32: the
/// precision it ran at and what that cost against float32 eager (a figure
/// not measured is left out); "" for a float32 row.
std::string format_precision_cost(const ResultRow& row);

/// The width of the backend column when a run has `backends`: 0 (no column,
/// the seed's line) for one backend, else the longest name and at least 12,
/// so that every line of the run aligns.
size_t backend_column_width(const std::vector<std::string>& backends);

/// The dynamo runner's line: "cpu  eval  LinearModel<pad to 34> 1.002x p=0.83".
/// With a `backend_width`, the backend name follows the model name, padded to
/// it; `with_ci` adds the speedup's 95% CI (the runner does for several
/// backends or --ci). A sweep's `point` (report/sweep_groups.h: "batch 8,
/// jemalloc") follows the model name in parentheses.
std::string format_result_line(const ResultRow& row, size_t backend_width, bool with_ci = false,
                               const std::string& point = "");

/// "p50 12.31 p90 12.90 p99 - p99.9 - ms, 81.2/s": the backend's latency
/// percentiles ("-" where the samples are too few) and throughput.
std::string format_latency_percentiles(const ResultRow& row);

/// Accuracy mode's line: "cpu  eval  resnet18  ofi  pass", or the status and
/// the worst output's errors; `point` as above.
std::string format_accuracy_line(const ResultRow& row, size_t backend_width,
                                 const std::string& point = "");

/// "accuracy: 5/6 pass" over accuracy rows.
std::string format_pass_rate(const std::vector<ResultRow>& rows);

/// A `+---+` grid of models x backends (speedups, or the status of failed
/// cells), then three summary rows per backend: "geomean" over measured rows
/// (raw, slowdowns included), "geomean (clamped)" with each speedup below 1
/// counted as 1.0 (the dynamo dashboard's convention), and "pass rate"
/// ("67%": measured rows of all rows; counts are in the HTML summary).
/// Then, where rows have one, a grid of each row's peak_share: how much of
/// this machine's compute it uses, so a reader sees where speed is left.
/// A sweep's rows get these grids per point, each under its label
/// ("batch 8, 2 threads:"; report/sweep_groups.h).
std::string format_grid_table(const std::vector<ResultRow>& rows,
                              const std::vector<std::string>& backends);

/// The grid's cells, header row first, for other renderings (markdown), of
/// rows at one sweep point.
std::vector<std::vector<std::string>> grid_table_cells(const std::vector<ResultRow>& rows,
                                                       const std::vector<std::string>& backends);

}  // namespace tracebench
