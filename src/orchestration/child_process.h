#pragma once
// Starting a model's child process and waiting for it within a deadline
// (docs/robustness.md). The child leads a process group of its own, so that
// what it starts (the Python exporter, the C++ compiler) is killed with it on
// a timeout. Its stderr passes through to the given stream as it comes, and its tail is
// kept to say why the child died.

#include <ostream>
#include <string>
#include <vector>

namespace tracebench {

struct ChildResult {
  bool timed_out = false;
  int wait_status = 0;      // as waitpid returns it
  std::string stderr_tail;  // the last few KB the child wrote to stderr
};

/// Runs argv[0] with `argv` (argv[0] must be a path), with `environment`'s
/// "NAME=value" entries set over ours, and waits at most `timeout_s` seconds,
/// then kills its whole process group. What the child writes to its stderr is
/// copied to `err` as it comes.
ChildResult run_child_process(const std::vector<std::string>& argv,
                              const std::vector<std::string>& environment, double timeout_s,
                              std::ostream& err);

/// The line of `stderr_text` that best says why a process died: the last glog
/// `Check failed` line, else the last `what():` line of an uncaught exception,
/// else the last line that is not part of a stack trace. "" if none.
std::string death_message(const std::string& stderr_text);

}  // namespace tracebench
