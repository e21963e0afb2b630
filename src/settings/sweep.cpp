#include "settings/sweep.h"

#include <algorithm>
#include <sstream>

#include "measure/environment.h"
#include "report/sweep_groups.h"
#include "tracebench/error.h"
#include "util/cpu_set.h"

namespace tracebench {

namespace {

// The values an axis takes: the swept list, else the one default.
template <typename Value, typename Single>
std::vector<Single> axis_values(const std::vector<Value>& sweep, const Single& single) {
  if (sweep.empty()) return {single};
  return {sweep.begin(), sweep.end()};
}

template <typename Value>
void require_each_once(const char* flag, const std::vector<Value>& values, const Value& value,
                       size_t i) {
  if (std::find(values.begin(), values.begin() + i, value) != values.begin() + i) {
    std::ostringstream text;
    text << flag << " names " << value << " twice; give each value once";
    throw UsageError(text.str());
  }
}

void validate_axis(const char* flag, const std::vector<int64_t>& values) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 1) {
      throw UsageError(std::string(flag) + " must be at least 1, got " + std::to_string(values[i]));
    }
    require_each_once(flag, values, values[i], i);
  }
}

}  // namespace

std::vector<int64_t> thread_counts(const RunOptions& options) {
  int64_t unswept = default_intra_op_threads();
  // --cpus 0-3: the model's process has four CPUs, so four threads
  // (orchestration/launcher.h checks the list before any point is taken).
  if (const auto cpus = cpus_of_list_text(options.cpus); cpus && !cpus->empty()) {
    unswept = static_cast<int64_t>(cpus->size());
  }
  return axis_values(options.threads_sweep, unswept);
}

std::vector<RunPoint> sweep_points(const RunOptions& options) {
  std::vector<RunPoint> points;
  for (const auto& allocator : axis_values(options.allocator_sweep, options.inherited_allocator)) {
    for (const auto batch_size : axis_values(options.batch_size_sweep, std::optional<int64_t>())) {
      for (const auto threads : thread_counts(options)) {
        points.push_back({batch_size, threads, allocator});
      }
    }
  }
  return points;
}

std::string sweep_point_label(const RunPoint& point, const RunOptions& options) {
  return sweep_label(options.batch_size_sweep.size() > 1 ? point.batch_size : std::nullopt,
                     options.threads_sweep.size() > 1 ? std::optional(point.threads) : std::nullopt,
                     options.allocator_sweep.size() > 1 ? point.allocator : "");
}

void validate_sweep(const RunOptions& options) {
  validate_axis("--batch-size", options.batch_size_sweep);
  validate_axis("--threads", options.threads_sweep);
  for (size_t i = 0; i < options.allocator_sweep.size(); ++i) {
    require_each_once("--malloc", options.allocator_sweep, options.allocator_sweep[i], i);
  }
}

}  // namespace tracebench
