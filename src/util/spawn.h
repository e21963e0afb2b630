#pragma once
// Starting a program without a shell in between (paths with spaces stay
// intact), with what it prints readable from a pipe. The one way tracebench
// starts processes: the compiler, the Python exporter, a model's child process.

#include <sys/types.h>

#include <string>
#include <vector>

namespace tracebench {

struct SpawnedProcess {
  pid_t pid = -1;
  int output_fd = -1;  // read end of the pipe; the caller closes it
  int input_fd = -1;   // Capture::kConversation: write end of its stdin; the caller closes it
};

enum class Capture {
  kStderr,           // stdout stays ours (a model's child prints nothing there)
  kStdoutAndStderr,  // interleaved, as a terminal would show them
  /// Its stdin and stdout are pipes to us (a worker answering requests);
  /// its stderr stays ours, so what it logs cannot break the exchange.
  kConversation,
};

/// Starts argv[0] (looked up on PATH unless it holds a slash) with `argv`,
/// in this process's environment with `environment`'s "NAME=value" entries
/// set over it. With `isolate`, the process leads a process group of its own
/// (so it can be killed with everything it starts) and is killed if this
/// process dies. Throws std::runtime_error naming the program if it cannot be
/// started.
SpawnedProcess spawn_process(const std::vector<std::string>& argv, Capture capture, bool isolate,
                             const std::vector<std::string>& environment = {});

}  // namespace tracebench
