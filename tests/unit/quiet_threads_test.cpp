#include "measure/quiet_threads.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace tracebench {
namespace {

using Clock = std::chrono::steady_clock;

// A pool's worker after a call: it spins for a while, then is done.
TEST(QuietThreads, WaitsForASpinningThreadToStop) {
  std::atomic<bool> spinning{true};
  std::thread spinner([&spinning] {
    const auto until = Clock::now() + std::chrono::milliseconds(40);
    while (Clock::now() < until) {
    }
    spinning = false;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(2));  // let it start
  wait_for_quiet_threads();
  EXPECT_FALSE(spinning) << "returned while another thread still ran";
  spinner.join();
}

// A pool's worker asleep on its futex does not hold the wait until the bound.
TEST(QuietThreads, ASleepingThreadDoesNotCount) {
  std::mutex mutex;
  std::condition_variable wake;
  bool stop = false;
  std::thread sleeper([&] {
    std::unique_lock<std::mutex> lock(mutex);
    wake.wait(lock, [&] { return stop; });
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const auto start = Clock::now();
  wait_for_quiet_threads();
  const auto waited = Clock::now() - start;
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  wake.notify_one();
  sleeper.join();
  // The bound is 100 ms; LibTorch's OpenMP threads, if earlier tests left
  // them spinning, stop within a few.
  EXPECT_LT(waited, std::chrono::milliseconds(60));
}

}  // namespace
}  // namespace tracebench
