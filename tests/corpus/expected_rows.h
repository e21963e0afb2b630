#pragma once
// The checked-in status of every (corpus model, backend) row, per build
// (tests/corpus/expected_rows.csv): the corpus tests fail on any difference,
// in either direction, and docs/backends.md's support table is generated
// from the same file (scripts/corpus_table.py).

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
  std::string note;  // why a row is not `pass`, where a reader needs it
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
/// table does not skip, in one mode, and checks each row's status against
/// the table; an `unsupported` or failed row must also say why. With
/// TRACEBENCH_RECORD_ROWS=FILE set, appends what it saw to FILE as
/// "model,backend,build,mode,status" lines instead
/// (scripts/corpus_table.py --merge FILE updates the table from them).
void expect_rows_as_in_the_table(const std::string& model, const std::string& only,
                                 const std::string& mode);

}  // namespace tracebench::testing
