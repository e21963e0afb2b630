#pragma once
// The command line: a declarative CLI11 option table over RunOptions, and the
// dispatch to performance mode or a subcommand.

#include <ostream>

namespace tracebench {

/// Parses argv and runs what it asks. Returns the process exit code: 0 on
/// success, 2 for a usage error (one line on `err`, naming the fix).
int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace tracebench
