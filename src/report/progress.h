#pragma once
// A one-line progress display on stderr, for people watching a terminal:
// "[2/5] resnet18  eager,ts,ofi  12s". Silent when stderr is not a terminal,
// so logs and pipes stay clean.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace tracebench {

class ProgressLine {
 public:
  /// `enabled` defaults to isatty(stderr).
  ProgressLine(std::ostream& err, size_t total_models, bool enabled);
  ~ProgressLine();

  /// Shows model `index` (0-based) and keeps its elapsed time ticking each second.
  void start(size_t index, const std::string& model, const std::string& backends);
  /// Erases the line (before anything else is printed).
  void clear();

  static bool stderr_is_terminal();

 private:
  void draw();  // with mutex_ held
  void tick();

  std::ostream& err_;
  size_t total_;
  bool enabled_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread ticker_;
  bool stop_ = false;
  bool shown_ = false;
  std::string text_;
  std::chrono::steady_clock::time_point model_start_;
  std::chrono::steady_clock::time_point run_start_ = std::chrono::steady_clock::now();
};

}  // namespace tracebench
