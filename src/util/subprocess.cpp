#include "util/subprocess.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "util/spawn.h"

namespace tracebench {

CommandResult run_command(const std::vector<std::string>& argv) {
  const auto process = spawn_process(argv, Capture::kStdoutAndStderr, /*isolate=*/false);
  CommandResult result;
  char buffer[4096];
  ssize_t n;
  while ((n = read(process.output_fd, buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR)) {
    if (n > 0) result.output.append(buffer, static_cast<size_t>(n));
  }
  close(process.output_fd);

  int status = 0;
  while (waitpid(process.pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string first_lines_containing(const std::string& text, const std::string& needle,
                                   size_t max_lines) {
  std::istringstream lines(text);
  std::string line, matched, all;
  size_t matched_count = 0, all_count = 0;
  while (std::getline(lines, line)) {
    if (all_count++ < max_lines) all += line + "\n";
    if (line.find(needle) != std::string::npos && matched_count++ < max_lines) {
      matched += line + "\n";
    }
  }
  return matched.empty() ? all : matched;
}

}  // namespace tracebench
