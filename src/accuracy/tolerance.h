#pragma once
// The one table of accuracy tolerances: per precision, the backend's own
// numerics and mode, with per-model overrides that carry their reason
// (docs/backends.md states them).

#include <string>

#include "accuracy/output_comparison.h"
#include "tracebench/backend.h"

namespace tracebench {

/// Tolerance for comparing a backend's outputs with eager's: the looser of
/// what --precision and the backend's `numerics` call for.
Tolerance tolerance_for(const std::string& model, Mode mode, Precision precision,
                        Numerics numerics = Numerics::kExact);

/// The looser check performance mode applies to a backend's first output:
/// cosine similarity, enough to catch a backend that computes something else
/// without an fp64 reference run (which --accuracy does). For a backend that
/// ran below float32 (`numerics`), a cosine of 0.9: its row is timed and says
/// what the lower precision cost (sqnr_db, top1_agreement), and the check
/// only catches a different computation.
Tolerance performance_check_tolerance(Numerics numerics = Numerics::kExact);

}  // namespace tracebench
