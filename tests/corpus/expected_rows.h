#pragma once
// The checked-in status of every (corpus model, backend) row, per build, and
// for a row that does not pass the reason its error must give
// (tests/corpus/expected_rows.csv): the corpus tests fail on any difference,
// in either direction, and docs/backends.md's support table is generated
// from the same file (scripts/corpus_table.py). `make record-expected-rows`
// rewrites the file from what the tests saw.

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tracebench::testing {

/// This LibTorch's column value: "1.13" (Debian) or "2.x" (the wheel).
std::string this_build();

/// "performance" or "accuracy": a column of the table.
struct ExpectedRow {
  std::string performance;
  std::string accuracy;
  std::string reason;  // a substring of the error a row that does not pass gives ("a|b": either)
  std::string note;    // why a row is not `pass`, where a reader needs more than its error
  /// The column of `mode` ("performance" or "accuracy").
  const std::string& status_in(const std::string& mode) const {
    return mode == "performance" ? performance : accuracy;
  }
};

/// Status `skipped`: the pair is not run in the tests (its note says why).
/// A status may name alternatives, "pass|fail_accuracy", where the note says
/// why the row is not the same from one run to the next.
inline constexpr const char* kSkipped = "skipped";

/// (model, backend) -> expected row, for this build.
std::map<std::pair<std::string, std::string>, ExpectedRow> expected_rows();

/// Runs `only` (whose rows are named `model`) through every backend the
/// table does not skip, in one mode, and checks each row's status and, where
/// it does not pass, its reason against the table; a backend without a line
/// fails. Every row seen is also written to observed-rows/ in the working
/// directory (the test's build folder), where `make record-expected-rows`
/// takes them into the table (scripts/corpus_table.py --record).
void expect_rows_as_in_the_table(const std::string& model, const std::string& only,
                                 const std::string& mode);

}  // namespace tracebench::testing
