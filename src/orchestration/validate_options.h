#pragma once
// The checks a run's options pass before any work: each value in range, and
// the flags that do not go together, each refused with the fix.

#include "settings/run_options.h"

namespace tracebench {

/// Throws UsageError naming the fix for any option out of range.
void validate(const RunOptions& options);

}  // namespace tracebench
