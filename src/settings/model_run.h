#pragma once
// What one model runs with at one point of a sweep, resolved once from the
// request (RunOptions, as parsed) and the machine: the point's batch size,
// thread count and allocator, the backends still to run, auto's candidates
// left out, and the folder its traces go to. The suite makes one per model and
// point; a model's child process makes its own from the arguments the parent
// gave it (model_run_arguments), so the parent and the child cannot disagree.
// The request itself is never edited.

#include <string>
#include <vector>

#include "settings/run_options.h"
#include "settings/run_point.h"

namespace tracebench {

struct ModelRun {
  /// What the user asked for: every setting that is the same for each model
  /// (mode, precision, repeat, files, ...). Outlives the ModelRun.
  const RunOptions& request;
  /// The batch size, the intra-op threads and the allocator, as resolved.
  RunPoint point;
  /// The backends this run still owes a row: all of --backend, less those a
  /// resumed report has and those an earlier child already reported.
  std::vector<std::string> backends;
  /// auto's candidates to leave out: --auto-skip, and those that killed an
  /// earlier child of this model (CompileOptions::auto_skip).
  std::vector<std::string> auto_skip;
  /// --profile's folder for this point: DIR/batch_8__2_threads/ in a sweep.
  std::string profile_dir;
};

/// The run of each model at `point` before anything is done: every backend
/// of the request, its --auto-skip, its --profile folder (a subfolder named
/// after the point when the run is a sweep).
ModelRun model_run(const RunOptions& request, const RunPoint& point);
/// A ModelRun keeps a reference to its request: never a temporary's.
ModelRun model_run(const RunOptions&& request, const RunPoint& point) = delete;

/// model_run at the first point of `request`'s sweep: a model's child process
/// has only the one its parent handed it.
ModelRun first_point_run(const RunOptions& request);
ModelRun first_point_run(const RunOptions&& request) = delete;

/// The arguments that hand `run`'s resolved values to a model's child process:
/// --backend, --batch-size, --threads, --auto-skip, --profile (the child reads
/// them with the other flags, and its first_point_run gives back the same
/// values).
std::vector<std::string> model_run_arguments(const ModelRun& run);

}  // namespace tracebench
