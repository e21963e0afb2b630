#include "measure/op_profile.h"

#include <torch/csrc/autograd/profiler_legacy.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace tracebench {

namespace {

namespace profiler = torch::autograd::profiler;

// One op's run: when it started, how long it took, how much of that its
// callees took.
struct Span {
  std::string name;
  uint64_t thread = 0;
  double start_us = 0;
  double duration_us = 0;
  double callees_us = 0;
};

// Pushes and pops nest per thread (RecordFunction's begin and end), so a
// stack pairs them.
std::vector<Span> spans_of(const profiler::thread_event_lists& threads) {
  std::vector<Span> spans;
  for (const auto& events : threads) {
    std::vector<std::pair<const profiler::LegacyEvent*, double>> open;  // push, callees' time
    for (const auto& event : events) {
      if (event.kind() == profiler::EventKind::PushRange) {
        open.emplace_back(&event, 0.0);
      } else if (event.kind() == profiler::EventKind::PopRange && !open.empty()) {
        const auto [push, callees_us] = open.back();
        open.pop_back();
        const double duration_us = push->cpuElapsedUs(event);
        spans.push_back({push->name(), push->threadId(), push->cpuUs(), duration_us, callees_us});
        if (!open.empty()) open.back().second += duration_us;
      }
    }
  }
  return spans;
}

void write_chrome_trace(const std::vector<Span>& spans, const std::string& path) {
  double origin_us = spans.empty() ? 0 : spans.front().start_us;
  for (const auto& span : spans) origin_us = std::min(origin_us, span.start_us);
  nlohmann::json events = nlohmann::json::array();
  for (const auto& span : spans) {
    events.push_back({{"name", span.name},
                      {"cat", "cpu_op"},
                      {"ph", "X"},
                      {"ts", span.start_us - origin_us},
                      {"dur", span.duration_us},
                      {"pid", static_cast<int64_t>(getpid())},
                      {"tid", span.thread},
                      {"args", {{"self_us", span.duration_us - span.callees_us}}}});
  }
  std::ofstream out(path, std::ios::trunc);
  out << nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump() << "\n";
  out.flush();
  if (!out) throw std::runtime_error("cannot write the profile trace " + path);
}

}  // namespace

std::vector<OpSelfTime> profile_ops(const std::function<void()>& call,
                                    const std::string& trace_path, size_t top) {
  profiler::enableProfilerLegacy(
      torch::profiler::impl::ProfilerConfig(torch::profiler::impl::ProfilerState::CPU));
  try {
    call();
  } catch (...) {
    profiler::disableProfilerLegacy();
    throw;
  }
  const auto spans = spans_of(profiler::disableProfilerLegacy());
  write_chrome_trace(spans, trace_path);

  std::map<std::string, OpSelfTime> by_name;
  double total_us = 0;
  for (const auto& span : spans) {
    OpSelfTime& op = by_name[span.name];
    op.name = span.name;
    ++op.calls;
    op.self_ms += (span.duration_us - span.callees_us) / 1e3;
    total_us += span.duration_us - span.callees_us;
  }
  std::vector<OpSelfTime> ops;
  for (auto& [name, op] : by_name) {
    op.share = total_us > 0 ? op.self_ms * 1e3 / total_us : 0;
    ops.push_back(op);
  }
  std::sort(ops.begin(), ops.end(),
            [](const OpSelfTime& a, const OpSelfTime& b) { return a.self_ms > b.self_ms; });
  if (ops.size() > top) ops.resize(top);
  return ops;
}

}  // namespace tracebench
