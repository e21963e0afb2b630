#pragma once
// What a model's child process is doing, readable by its parent after the
// child died (docs/robustness.md). The child maps a small file shared and
// stores its phase there: a plain memory write, cheap enough to make before
// every timed sample, and still in the page cache when the child is killed by
// a signal, a glog CHECK or the OOM killer. The parent reads the file to name
// the backend that was in flight.

#include <string>

namespace tracebench {

enum class ChildPhase : int {
  kStarting = 0,  // before the model is loaded (also: a board never written)
  kLoading,       // loading the model (exporting a .py, compiling a .cpp)
  kCompiling,     // Backend::compile
  kRunning,       // first call, warm-up, memory, accuracy runs
  kSampling,      // timed samples
};

/// What the board said last.
struct ChildActivity {
  ChildPhase phase = ChildPhase::kStarting;
  std::string backend;    // the backend in flight; "" while loading
  bool baseline = false;  // the eager baseline, not a compared backend
  /// auto's candidate in flight (CompileOptions::on_auto_candidate); "" for others.
  std::string candidate;

  /// "compiling ofi", "sampling the eager baseline", "loading the model".
  std::string describe() const;
};

/// In the child: maps `path` and publishes phases there until the process
/// ends. Without a call to open(), publish() does nothing (in-process runs).
void open_child_phase_board(const std::string& path);

/// Records what the child is doing now.
void publish_child_phase(ChildPhase phase, const std::string& backend = "", bool baseline = false,
                         const std::string& candidate = "");

/// In the parent: what the child's board said last ({} if it has none).
ChildActivity read_child_phase_board(const std::string& path);

}  // namespace tracebench
