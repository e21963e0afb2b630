#pragma once
// Where one call spends its time, op by op (--profile, docs/reports.md): one
// untimed pass under LibTorch's legacy autograd profiler (Debian's LibTorch
// has no Kineto), written as a Chrome trace and summed into self times.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tracebench {

struct OpSelfTime {
  std::string name;  // "aten::conv2d", "prepacked::conv2d_clamp_run"
  int64_t calls = 0;
  double self_ms = 0;  // in the op itself, not in the ops it called
  double share = 0;    // of all ops' self time in the pass
};

/// Runs `call` once under the profiler, writes each op it ran as a complete
/// event of a Chrome trace (`{"traceEvents": [...]}`, which Perfetto and
/// chrome://tracing load) to `trace_path`, and returns the `top` ops by self
/// time, most first. Throws std::runtime_error when the file cannot be written.
std::vector<OpSelfTime> profile_ops(const std::function<void()>& call,
                                    const std::string& trace_path, size_t top = 15);

}  // namespace tracebench
