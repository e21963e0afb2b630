#pragma once
// One point of a sweep (settings/sweep.h): the batch size, thread count and
// allocator one model's process measures with. RunOptions keeps what the user
// asked for, the lists; sweep_points() turns them into points, each with its
// effective values, and the suite measures every model at every point.

#include <cstdint>
#include <optional>
#include <string>

namespace tracebench {

struct RunPoint {
  /// Unset: the model's own batch size.
  std::optional<int64_t> batch_size;
  /// The intra-op threads the model computes with, always a count:
  /// sweep_points() resolves a run without --threads to the CPUs --cpus
  /// names or LibTorch's own count. One in a point a test builds by hand.
  int64_t threads = 1;
  /// As --malloc names it (orchestration/launcher.h).
  std::string allocator = "glibc";
};

}  // namespace tracebench
