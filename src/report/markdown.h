#pragma once
// `--markdown FILE` and `tracebench report results.json --markdown OUT`: the
// grid and the rows as GitHub-flavoured markdown tables, to paste into a pull
// request or an issue.

#include <string>

#include "report/json.h"

namespace tracebench {

/// A heading with the run's size, time and CPU; the speedup grid (models x
/// backends, with the geomean and pass-rate rows); then one line per row with
/// its status, speedup, CI, latencies, percentiles, throughput and peak share.
std::string render_markdown(const RunReport& report);

}  // namespace tracebench
