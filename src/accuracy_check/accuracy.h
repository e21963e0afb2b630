#pragma once
// Accuracy mode for one model: does each backend compute what eager computes?
//
// Per model: an fp64 eager reference, two fp32 eager runs (to detect
// non-determinism), then each backend, every run on a freshly built,
// identically seeded model. Inference compares outputs; training compares
// outputs, loss, parameters and gradients after two optimizer steps.

#include <vector>

#include "report/result_row.h"
#include "settings/model_run.h"
#include "sources/load_model.h"

namespace tracebench {

/// One row per backend of `run`, with status pass, fail_accuracy
/// (the worst output in `error`), fail_to_run, eager_fail_to_run,
/// eager_two_runs_differ or unsupported.
std::vector<ResultRow> check_accuracy(LoadedModel& loaded, const ModelRun& run);

}  // namespace tracebench
