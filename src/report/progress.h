#pragma once
// Which model a run is on, on stderr: "[2/5] resnet18  eager,ts,ofi". On a
// terminal one line that keeps its elapsed time ticking and is erased before
// anything else prints; redirected, a plain line as each model of a run of
// several starts, so that a log shows what the run is doing before its first
// model ends (a minute and more with auto).

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace tracebench {

class ProgressLine {
 public:
  /// `terminal`: a live line (reporters pass isatty(stderr)); else plain lines.
  ProgressLine(std::ostream& err, size_t total_models, bool terminal);
  ~ProgressLine();

  /// Shows model `index` (0-based); on a terminal, keeps its elapsed time ticking each second.
  void start(size_t index, const std::string& model, const std::string& backends);
  /// Erases a terminal's line (before anything else is printed).
  void clear();

  static bool stderr_is_terminal();

 private:
  void draw();  // with mutex_ held
  void tick();

  std::ostream& err_;
  size_t total_;
  bool terminal_;
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
