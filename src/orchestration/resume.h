#pragma once
// --resume: finish a run that was interrupted. The CSV given by --output is
// read back; every (model, backend) with a result there, at the same sweep
// point (batch size, threads, allocator), is kept as it is and not run again. Rows that say the run
// did not get a result (crash, timeout, OOM, model_fail_to_load: a flaky machine, or a model the
// user has fixed since) are removed from the file and run again.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/result_row.h"

namespace tracebench {

struct ResumeState {
  /// The rows already in the file (the columns the CSV holds; no raw samples).
  std::vector<ResultRow> rows;

  /// The backends of `backends` that `model` still lacks at a sweep point, in
  /// order: `batch_size` as the point sets it (unset: the model's own, any
  /// row's matches) and the `threads` it runs with (a row of 0, from the
  /// accuracy CSV that has no threads column, matches any) and `allocator`.
  std::vector<std::string> missing_backends(const std::string& model,
                                            std::optional<int64_t> batch_size, int64_t threads,
                                            const std::string& allocator,
                                            const std::vector<std::string>& backends) const;
};

/// Whether --resume runs a row with this status again.
bool retried_on_resume(const std::string& status);

/// Reads `csv_path` for --resume. A missing or empty file means nothing is
/// done yet. Rows to retry are removed from the file (rewritten atomically).
/// A last line without its newline (cut off by a crash of something other
/// than tracebench) is removed from the file. What it did is said on `err`. Throws UsageError
/// naming the fix if there is no --output, or the file is not one of tracebench's CSVs.
ResumeState prepare_resume(const std::string& csv_path, bool accuracy, std::ostream& err);

}  // namespace tracebench
