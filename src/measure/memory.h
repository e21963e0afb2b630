#pragma once
// Peak tensor memory of a region of code, counted by wrapping LibTorch's CPU
// allocator.
//
// What is counted: every allocation made through c10::GetCPUAllocator() while
// the region runs (the storage of ordinary CPU tensors: activations, outputs,
// temporaries, constants a backend creates) and still live; the peak of that
// live total. Not counted: tensors that existed before the region (weights,
// inputs), memory that oneDNN/ideep allocates itself (MKLDNN-layout tensors,
// primitive caches, scratchpads), OpenBLAS buffers, the JIT's own graph and
// interpreter structures, and anything else that calls malloc directly. See
// docs/statistics.md ("Memory") for what that means per backend.

#include <cstdint>
#include <functional>

namespace tracebench {

struct MemoryPeak {
  int64_t peak_bytes = 0;   // highest live total counted during the region
  int64_t allocations = 0;  // allocations counted
  bool counted = false;     // false if the allocator could not be installed
};

/// Runs `region` with a counting allocator installed as the CPU allocator and
/// restores the previous one afterwards (also when `region` throws). Counting
/// is thread-safe (intra-op threads allocate concurrently). Not reentrant:
/// regions must not nest or run on two threads at once.
MemoryPeak measure_peak_memory(const std::function<void()>& region);

}  // namespace tracebench
