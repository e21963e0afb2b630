#include "report/progress.h"

#include <unistd.h>

#include <cstdio>

namespace tracebench {

bool ProgressLine::stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(std::ostream& err, size_t total_models, bool terminal)
    : err_(err), total_(total_models), terminal_(terminal) {
  if (terminal_) ticker_ = std::thread([this] { tick(); });
}

ProgressLine::~ProgressLine() {
  if (!terminal_) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  ticker_.join();
  clear();
}

void ProgressLine::start(size_t index, const std::string& model, const std::string& backends) {
  std::lock_guard<std::mutex> lock(mutex_);
  text_ = "[" + std::to_string(index + 1) + "/" + std::to_string(total_) + "] " + model + "  " +
          backends;
  if (!terminal_) {
    // One model: the run's own output says which, and the seed's one line stays one line.
    if (total_ > 1) err_ << text_ << "\n" << std::flush;
    return;
  }
  model_start_ = std::chrono::steady_clock::now();
  shown_ = true;
  draw();
}

void ProgressLine::clear() {
  if (!terminal_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (shown_) err_ << "\r\033[K" << std::flush;
  shown_ = false;
}

void ProgressLine::draw() {
  const auto now = std::chrono::steady_clock::now();
  const auto seconds = [&](auto since) {
    return static_cast<long>(std::chrono::duration<double>(now - since).count());
  };
  char elapsed[64];
  std::snprintf(elapsed, sizeof elapsed, "  %lds (total %lds)", seconds(model_start_),
                seconds(run_start_));
  err_ << "\r\033[K" << text_ << elapsed << std::flush;
}

void ProgressLine::tick() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, std::chrono::seconds(1));
    if (!stop_ && shown_) draw();
  }
}

}  // namespace tracebench
