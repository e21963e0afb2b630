#include "runner/sweep.h"

#include <algorithm>
#include <sstream>

#include "report/sweep_groups.h"
#include "tracebench/error.h"

namespace tracebench {

namespace {

// The values an axis takes: the swept list, else the one value (or unset).
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

std::vector<RunOptions> sweep_points(const RunOptions& options) {
  std::vector<RunOptions> points;
  for (const auto& allocator : axis_values(options.allocator_sweep, options.allocator)) {
    for (const auto batch_size : axis_values(options.batch_size_sweep, options.batch_size)) {
      for (const auto threads : axis_values(options.threads_sweep, options.threads)) {
        RunOptions point = options;
        point.allocator = allocator;
        point.batch_size = batch_size;
        point.threads = threads;
        points.push_back(std::move(point));
      }
    }
  }
  return points;
}

std::string sweep_point_label(const RunOptions& point, const RunOptions& options) {
  return sweep_label(options.batch_size_sweep.size() > 1 ? point.batch_size : std::nullopt,
                     options.threads_sweep.size() > 1 ? point.threads : std::nullopt,
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
