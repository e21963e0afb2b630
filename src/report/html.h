#pragma once
// `tracebench report results.json --html report.html`: one self-contained HTML
// page (inline CSS and SVG, no script, no network): speedup bars with 95% CI
// whiskers per model x backend, per-sample strip plots, a table with memory
// and compile-time columns, the summary, and the environment.

#include <string>

#include "report/json.h"
#include "util/text.h"

namespace tracebench {

std::string render_html(const RunReport& report);

}  // namespace tracebench
