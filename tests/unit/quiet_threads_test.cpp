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

// Earlier tests in this process may have left a pool spinning past the
// 100 ms bound (OpenBLAS's threads spin ~0.1 s after a matrix product): each
// test starts once they are quiet, so that what it sees is its own thread's.
void let_earlier_pools_sleep() {
  for (int wait = 0; wait < 50 && !wait_for_quiet_threads(); ++wait) {
  }
}

// A pool's worker after a call: it spins for a while, then is done.
TEST(QuietThreads, WaitsForASpinningThreadToStop) {
  let_earlier_pools_sleep();
  std::atomic<bool> spinning{true};
  std::thread spinner([&spinning] {
    const auto until = Clock::now() + std::chrono::milliseconds(40);
    while (Clock::now() < until) {
    }
    spinning = false;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(2));  // let it start
  EXPECT_TRUE(wait_for_quiet_threads()) << "the 100 ms bound ended a 40 ms spin's wait";
  EXPECT_FALSE(spinning) << "returned while another thread still ran";
  spinner.join();
}

// A pool's worker asleep on its futex does not hold the wait until the bound.
TEST(QuietThreads, ASleepingThreadDoesNotCount) {
  let_earlier_pools_sleep();
  std::mutex mutex;
  std::condition_variable wake;
  bool stop = false;
  std::thread sleeper([&] {
    std::unique_lock<std::mutex> lock(mutex);
    wake.wait(lock, [&] { return stop; });
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  // The state, not the time waited: it returns having seen every other
  // thread quiet, where counting the sleeper as running would wait out the
  // bound and return false. (LibTorch's OpenMP threads, if earlier tests left
  // them spinning, stop within a few ms.)
  const bool quiet = wait_for_quiet_threads();
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  wake.notify_one();
  sleeper.join();
  EXPECT_TRUE(quiet) << "a thread asleep on a condition variable was taken for a running one";
}

}  // namespace
}  // namespace tracebench
