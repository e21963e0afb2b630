#pragma once
// Which models a run covers: the --only specs, or the built-in models the -k
// and -x patterns keep.

#include <vector>

#include "settings/run_options.h"
#include "sources/model_spec.h"

namespace tracebench {

/// The models a run covers: the --only specs, else the built-in models whose
/// names match a -k filter (all if none) and no -x exclude, sorted by name.
std::vector<ModelSpec> select_models(const RunOptions& options);

}  // namespace tracebench
