#pragma once
// What a run says of each backend across its rows: the console grid's last
// lines and the HTML report's summary table. One definition for both.

#include <string>

#include "report/result_row.h"

namespace tracebench {

struct BackendSummary {
  double geomean_speedup;  // over the rows that passed; NaN when none did
  /// The same with every slowdown counted as 1.0 (the dynamo dashboard's
  /// convention): what choosing this backend where it wins would give.
  double geomean_speedup_clamped;
  int passed;  // rows with status pass
  int rows;    // every row of the backend, whatever its status
};

/// `backend`'s rows among `rows`: each row counts once (a sweep's points are
/// rows of their own).
BackendSummary summarize_backend(const std::vector<ResultRow>& rows, const std::string& backend);

}  // namespace tracebench
