#pragma once
// The HTML report's view of a batch-size sweep (`--batch-size 1,8,32`): how
// latency and throughput grow with the batch, per backend.

#include <string>

#include "report/json.h"

namespace tracebench {

/// For each model (and thread count, when swept): two inline SVG line charts,
/// median latency and throughput against batch size, a line per backend and
/// one for eager. "" when the report sweeps no batch sizes.
std::string batch_sweep_charts(const RunReport& report);

}  // namespace tracebench
