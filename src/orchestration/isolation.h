#pragma once
// One child process per model (docs/robustness.md). The parent re-runs its own
// binary with the same flags plus `--only=<spec> --rows-to FILE`; the child
// writes its rows there as JSON lines. A child that dies by a signal, runs out
// of memory or outlives --timeout becomes rows with status crash/OOM/timeout,
// and the suite goes on.

#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "report/result_row.h"
#include "settings/model_run.h"
#include "settings/run_options.h"
#include "sources/model_spec.h"

namespace tracebench {

/// Runs one model as `run` says (one point of the sweep) and returns a row
/// per backend of `run`: in a child process when the request says isolate,
/// else in this process (which apply_process_settings has set to the point).
/// Never throws for what the model does; throws UsageError only for the
/// options themselves. A child's stderr (LibTorch's own warnings, a dying
/// message) goes to `err`.
std::vector<ResultRow> run_model(const ModelSpec& spec, const ModelRun& run, std::ostream& err);

/// One model in this process: a row per backend. Load failures become
/// model_fail_to_load rows; a UsageError (e.g. no such class) is rethrown.
std::vector<ResultRow> run_model_in_process(const ModelSpec& spec, const ModelRun& run);

/// Child mode (`--rows-to FILE`): runs the --only model in this process and
/// writes its rows to options.rows_to, printing nothing. Returns the exit code.
int run_isolated_child(const RunOptions& options);

/// What a model's process wrote to its --rows-to file.
struct ChildRows {
  std::map<std::string, ResultRow> rows;  // by backend
  std::string usage_error;                // set when the model itself was a usage mistake
  /// A line that is not a row this binary can read, and the backend it
  /// names ("" when it names none). A schema the parent and the child
  /// disagree on would otherwise lose rows without a word.
  std::vector<std::pair<std::string, std::string>> unreadable;
};

/// Parses a --rows-to file. A last line without its newline was cut short
/// by the process dying mid-write: it is left out, and the death gets the
/// row. Any other line that does not parse is `unreadable`.
ChildRows parse_child_rows(const std::string& text);

/// "SIGSEGV" for SIGSEGV, "signal 77" for one without a name.
std::string signal_name(int signal);

/// Rows whose error says memory ran out (std::bad_alloc, LibTorch's allocator
/// failing) get status OOM.
void mark_out_of_memory(std::vector<ResultRow>& rows);

}  // namespace tracebench
