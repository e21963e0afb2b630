#pragma once
// Performance mode for one model: every requested backend against an eager
// baseline, timed in interleaved, shuffled turns.

#include <vector>

#include "report/result_row.h"
#include "settings/model_run.h"
#include "sources/load_model.h"

namespace tracebench {

/// One row per backend of `run` (in that order). Failures become
/// rows with a status; this function only throws for bugs.
std::vector<ResultRow> measure_performance(LoadedModel& loaded, const ModelRun& run);

}  // namespace tracebench
