#include "orchestration/child_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ostream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "util/spawn.h"

namespace tracebench {

namespace {

constexpr size_t kTailBytes = 16 * 1024;

// Copies what the child wrote to our stderr and keeps the tail. Returns false
// at end of file.
bool pass_through(int fd, std::string& tail, std::ostream& err) {
  char buffer[4096];
  const ssize_t n = read(fd, buffer, sizeof buffer);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (n <= 0) return false;
  err.write(buffer, n);
  err.flush();
  tail.append(buffer, static_cast<size_t>(n));
  if (tail.size() > 2 * kTailBytes) tail.erase(0, tail.size() - kTailBytes);
  return true;
}

bool is_stack_trace_line(const std::string& line) {
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string::npos) return true;
  const std::string text = line.substr(start);
  return text.rfind("@ ", 0) == 0 || text.rfind("*** ", 0) == 0 || text.rfind("frame #", 0) == 0 ||
         text.rfind("Exception raised from", 0) == 0;
}

}  // namespace

ChildResult run_child_process(const std::vector<std::string>& argv,
                              const std::vector<std::string>& environment, double timeout_s,
                              std::ostream& err) {
  const auto child = spawn_process(argv, Capture::kStderr, /*isolate=*/true, environment);
  const pid_t pid = child.pid;
  const int fd = child.output_fd;

  ChildResult result;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(timeout_s));
  bool open = true;
  for (;;) {
    if (open) {
      pollfd readable{fd, POLLIN, 0};
      if (poll(&readable, 1, 20) > 0) open = pass_through(fd, result.stderr_tail, err);
    } else {
      const timespec pause{0, 20 * 1000 * 1000};
      nanosleep(&pause, nullptr);
    }
    const pid_t done = waitpid(pid, &result.wait_status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      close(fd);
      throw std::runtime_error(std::string("waitpid: ") + strerror(errno));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      while (waitpid(pid, &result.wait_status, 0) < 0 && errno == EINTR) {
      }
      result.timed_out = true;
      break;
    }
  }
  // What the child left running (an exporter it was waiting for) goes too.
  kill(-pid, SIGKILL);
  // The last lines it wrote before dying (the glog line, a what():).
  for (pollfd readable{fd, POLLIN, 0}; open && poll(&readable, 1, 200) > 0;) {
    open = pass_through(fd, result.stderr_tail, err);
  }
  close(fd);
  return result;
}

std::string death_message(const std::string& stderr_text) {
  std::vector<std::string> lines;
  std::istringstream in(stderr_text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  // glog's "F20261201 08:23:30.593174  9385 " says when and which thread: noise here.
  static const std::regex kGlogHeader(R"(^[FEWI]\d{8} \d\d:\d\d:\d\d\.\d+ +\d+ )");
  for (const char* marker : {"Check failed", "what():"}) {
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
      if (it->find(marker) != std::string::npos) return std::regex_replace(*it, kGlogHeader, "");
    }
  }
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    if (!is_stack_trace_line(*it)) return *it;
  }
  return "";
}

}  // namespace tracebench
