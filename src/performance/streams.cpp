#include "performance/streams.h"

#include <ATen/ThreadLocalState.h>

#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

namespace tracebench {

namespace {

// Holds every stream at the start line until the last one is there, so that
// the requests overlap from their first call rather than as threads appear.
class StartLine {
 public:
  explicit StartLine(size_t runners) : waiting_(runners) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (--waiting_ == 0) {
      ready_.notify_all();
      return;
    }
    ready_.wait(lock, [this] { return waiting_ == 0; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  size_t waiting_;
};

}  // namespace

std::vector<double> time_concurrent_requests(const std::vector<CompiledModel*>& instances,
                                             const std::vector<c10::IValue>& inputs,
                                             int64_t iterations) {
  std::vector<double> seconds(instances.size(), 0);
  std::vector<std::exception_ptr> errors(instances.size());
  const at::ThreadLocalState caller_state;
  StartLine start(instances.size());
  std::vector<std::thread> streams;
  for (size_t i = 0; i < instances.size(); ++i) {
    streams.emplace_back([&, i] {
      const at::ThreadLocalStateGuard same_state(caller_state);
      start.arrive_and_wait();
      try {
        seconds[i] = instances[i]->seconds_per_call(inputs, iterations);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  }
  for (auto& stream : streams) stream.join();
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  return seconds;
}

}  // namespace tracebench
