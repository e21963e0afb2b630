#pragma once
// Runs a helper program (the compiler, the Python exporter) and captures what
// it prints, without a shell in between, so paths with spaces stay intact.

#include <string>
#include <vector>

namespace tracebench {

struct CommandResult {
  int exit_code = -1;  // 128 + signal when killed by one
  std::string output;  // stdout and stderr, interleaved
};

/// Runs argv[0] (looked up on PATH) with the given arguments and waits for it.
/// Throws std::runtime_error if the program cannot be started at all.
CommandResult run_command(const std::vector<std::string>& argv);

/// The first `max_lines` lines of `text` that contain `needle` (all lines if none do).
std::string first_lines_containing(const std::string& text, const std::string& needle,
                                   size_t max_lines);

}  // namespace tracebench
