#pragma once
// --resume: finish a run that was interrupted. The CSV given by --output is
// read back; every (model, backend) with a result there is kept as it is and
// not run again. Rows that say the run did not get a result (crash, timeout,
// OOM, model_fail_to_load: a flaky machine, or a model the user has fixed
// since) are removed from the file and run again.

#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "report/result_row.h"

namespace tracebench {

struct ResumeState {
  /// The rows already in the file (the columns the CSV holds; no raw samples).
  std::vector<ResultRow> rows;
  /// (model, backend) pairs done.
  std::set<std::pair<std::string, std::string>> done;

  /// The backends of `backends` that `model` still lacks, in order.
  std::vector<std::string> missing_backends(const std::string& model,
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
