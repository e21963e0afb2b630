#pragma once
// --total-partitions N --partition-id I: split the model list for N machines,
// as the dynamo runner does: the list is sorted by name, cut into N contiguous
// chunks of floor(size / N) models, and the last chunk takes the remainder.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tracebench/error.h"

namespace tracebench {

/// Chunk `id` (0-based) of `total` of `items` sorted by `.name`. Throws
/// UsageError if total < 1 or id is outside [0, total).
template <typename Item>
std::vector<Item> partition_models(std::vector<Item> items, int64_t total, int64_t id) {
  if (total < 1) throw UsageError("--total-partitions must be at least 1");
  if (id < 0 || id >= total) {
    throw UsageError("--partition-id must be in [0, " + std::to_string(total - 1) + "]");
  }
  if (total == 1) return items;
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.name < b.name; });
  const size_t chunk = items.size() / static_cast<size_t>(total);
  const size_t begin = chunk * static_cast<size_t>(id);
  const size_t end = id == total - 1 ? items.size() : begin + chunk;
  return {items.begin() + begin, items.begin() + end};
}

}  // namespace tracebench
