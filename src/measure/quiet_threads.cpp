#include "measure/quiet_threads.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace tracebench {

namespace {

// Whether a thread of this process other than the caller is running or
// runnable: the state letter after the command's closing parenthesis in
// /proc/self/task/TID/stat.
bool another_thread_runs() {
  const std::string self = std::to_string(syscall(SYS_gettid));
  std::error_code error;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", error)) {
    if (task.path().filename() == self) continue;
    std::ifstream stat(task.path() / "stat");
    std::string line;
    std::getline(stat, line);
    const auto end_of_name = line.rfind(')');
    if (end_of_name != std::string::npos && end_of_name + 2 < line.size() &&
        line[end_of_name + 2] == 'R') {
      return true;
    }
  }
  return false;
}

}  // namespace

bool wait_for_quiet_threads() {
  constexpr int kMostProbes = 100;
  for (int probe = 0; probe < kMostProbes; ++probe) {
    if (!another_thread_runs()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return !another_thread_runs();
}

}  // namespace tracebench
