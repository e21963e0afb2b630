#include "measure/memory.h"

#include <c10/core/CPUAllocator.h>
#include <gtest/gtest.h>
#include <torch/script.h>

namespace tracebench {
namespace {

TEST(Memory, CountsTensorsAllocatedInTheRegion) {
  torch::Tensor kept;
  const auto peak = measure_peak_memory([&] {
    auto temporary = torch::empty({1000}, torch::kFloat32);  // 4000 bytes, freed in the region
    kept = torch::empty({500}, torch::kFloat64);             // 4000 bytes, outlives it
  });
  EXPECT_TRUE(peak.counted);
  EXPECT_GE(peak.peak_bytes, 8000);
  EXPECT_LT(peak.peak_bytes, 8000 + 4096);
  EXPECT_EQ(peak.allocations, 2);
}

TEST(Memory, TemporariesFreedBeforeTheNextOneDoNotAddUp) {
  const auto peak = measure_peak_memory([] {
    for (int i = 0; i < 10; ++i) torch::empty({1000}, torch::kFloat32);
  });
  EXPECT_GE(peak.peak_bytes, 4000);
  EXPECT_LT(peak.peak_bytes, 8000);
}

TEST(Memory, PreexistingTensorsAreNotCountedAndAllocatorIsRestored) {
  c10::Allocator* before = c10::GetCPUAllocator();
  auto weights = torch::ones({10000});
  torch::Tensor from_region;
  const auto peak = measure_peak_memory([&] { from_region = weights * 2; });
  EXPECT_EQ(c10::GetCPUAllocator(), before);
  EXPECT_GE(peak.peak_bytes, 40000);
  EXPECT_LT(peak.peak_bytes, 2 * 40000);
  // A tensor from a finished region can still be freed (and later regions
  // start from zero).
  from_region = torch::Tensor();
  const auto next = measure_peak_memory([] {});
  EXPECT_EQ(next.peak_bytes, 0);
}

TEST(Memory, RestoresTheAllocatorWhenTheRegionThrows) {
  c10::Allocator* before = c10::GetCPUAllocator();
  EXPECT_THROW(measure_peak_memory([] { throw std::runtime_error("boom"); }), std::runtime_error);
  EXPECT_EQ(c10::GetCPUAllocator(), before);
}

}  // namespace
}  // namespace tracebench
