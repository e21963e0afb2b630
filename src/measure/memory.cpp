#include "measure/memory.h"

#include <c10/core/CPUAllocator.h>
#include <torch/version.h>

#include <algorithm>
#include <mutex>
#include <unordered_map>

namespace tracebench {

namespace {

// Lives for the whole process: tensors allocated in a region may be freed long
// after it, and their deleter still reports to it.
//
// The DataPtr it returns keeps context == data, because LibTorch's
// raw_allocate (used by some kernels) asserts exactly that; each pointer's
// size is kept in a side table instead, and the original allocator's raw
// deleter frees the memory.
class CountingAllocator final : public c10::Allocator {
 public:
  void begin(c10::Allocator* inner) {
    std::lock_guard<std::mutex> lock(mutex_);
    inner_ = inner;
    inner_raw_deleter_ = inner->raw_deleter();
    ++generation_;  // frees of older regions' tensors no longer count
    live_ = 0;
    peak_ = 0;
    allocations_ = 0;
  }

  // LibTorch 2.3 made Allocator::allocate non-const and added copy_data.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
  c10::DataPtr allocate(size_t bytes) override { return counted(bytes); }
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    default_copy_data(dest, src, count);
  }
#else
  c10::DataPtr allocate(size_t bytes) const override { return counted(bytes); }
#endif

  c10::DataPtr counted(size_t bytes) const {
    c10::DataPtr inner = inner_->allocate(bytes);
    if (inner_raw_deleter_ == nullptr || inner.get() != inner.get_context() ||
        inner.get_deleter() != inner_raw_deleter_) {
      return inner;  // an allocator we cannot wrap transparently: not counted
    }
    void* data = inner.release_context();
    std::lock_guard<std::mutex> lock(mutex_);
    sizes_[data] = {static_cast<int64_t>(bytes), generation_, inner_raw_deleter_};
    live_ += static_cast<int64_t>(bytes);
    peak_ = std::max(peak_, live_);
    ++allocations_;
    return c10::DataPtr(data, data, &release, inner.device());
  }

  c10::DeleterFnPtr raw_deleter() const override { return &release; }

  int64_t peak() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return peak_;
  }
  int64_t allocations() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return allocations_;
  }

 private:
  struct Entry {
    int64_t bytes;
    int64_t generation;
    c10::DeleterFnPtr free;
  };

  static void release(void* data);

  c10::Allocator* inner_ = nullptr;
  c10::DeleterFnPtr inner_raw_deleter_ = nullptr;
  mutable std::mutex mutex_;
  mutable std::unordered_map<void*, Entry> sizes_;
  int64_t generation_ = 0;
  mutable int64_t live_ = 0;
  mutable int64_t peak_ = 0;
  mutable int64_t allocations_ = 0;
};

CountingAllocator& counting_allocator() {
  static auto* allocator = new CountingAllocator();  // never destroyed, see above
  return *allocator;
}

void CountingAllocator::release(void* data) {
  auto& self = counting_allocator();
  c10::DeleterFnPtr free_memory = nullptr;
  {
    std::lock_guard<std::mutex> lock(self.mutex_);
    auto it = self.sizes_.find(data);
    if (it == self.sizes_.end()) return;  // not ours: cannot happen for our DataPtrs
    if (it->second.generation == self.generation_) self.live_ -= it->second.bytes;
    free_memory = it->second.free;
    self.sizes_.erase(it);
  }
  free_memory(data);
}

// SetAllocator ignores a lower priority than the current one's; the highest
// always wins, and the result is checked.
constexpr uint8_t kPriority = 255;

}  // namespace

MemoryPeak measure_peak_memory(const std::function<void()>& region) {
  MemoryPeak result;
  c10::Allocator* original = c10::GetCPUAllocator();
  auto& counter = counting_allocator();
  counter.begin(original);
  c10::SetCPUAllocator(&counter, kPriority);
  result.counted = c10::GetCPUAllocator() == &counter;
  try {
    region();
  } catch (...) {
    c10::SetCPUAllocator(original, kPriority);
    throw;
  }
  c10::SetCPUAllocator(original, kPriority);
  result.peak_bytes = counter.peak();
  result.allocations = counter.allocations();
  return result;
}

}  // namespace tracebench
