#pragma once
// --streams N (benchmark_app's -nstreams, onnxruntime_perf_test's -c): N
// inference threads call at once, each its own compiled instance, each with
// the run's intra-op threads. Every request is timed on its own thread.

#include <ATen/core/ivalue.h>

#include <vector>

#include "tracebench/backend.h"

namespace tracebench {

/// One request on each of `instances` at the same time, each on a thread of
/// its own that starts when all are ready and carries the caller's
/// thread-local state (grad mode, autocast). Returns each request's seconds
/// per call (`iterations` calls back to back), in instance order. The first
/// exception a request throws is rethrown here, after every thread ended.
std::vector<double> time_concurrent_requests(const std::vector<CompiledModel*>& instances,
                                             const std::vector<c10::IValue>& inputs,
                                             int64_t iterations);

}  // namespace tracebench
