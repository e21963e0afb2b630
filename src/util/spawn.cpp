#include "util/spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <stdexcept>

namespace tracebench {

namespace {

// Only async-signal-safe calls between fork and exec: the parent has threads.
[[noreturn]] void exec_in_child(char* const* args, char* const* environment, int input_fd,
                                int output_fd, int error_fd, Capture capture, bool isolate,
                                pid_t parent) {
  if (isolate) {
    // Dies with the parent: a `kill -9` of the suite leaves no orphan running.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    setpgid(0, 0);
  }
  if (capture == Capture::kConversation) {
    dup2(input_fd, STDIN_FILENO);
    dup2(output_fd, STDOUT_FILENO);
  } else {
    if (capture == Capture::kStdoutAndStderr) dup2(output_fd, STDOUT_FILENO);
    dup2(output_fd, STDERR_FILENO);
  }
  execvpe(args[0], args, environment);
  // Tell the parent why, through the close-on-exec pipe that exec would have closed.
  const int error = errno;
  ssize_t ignored = write(error_fd, &error, sizeof error);
  (void)ignored;
  _exit(127);
}

// This process's environment with `overrides` ("NAME=value") set over it.
std::vector<std::string> environment_with(const std::vector<std::string>& overrides) {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry; ++entry) entries.emplace_back(*entry);
  for (const auto& override : overrides) {
    const std::string name = override.substr(0, override.find('=') + 1);
    const auto same = std::find_if(entries.begin(), entries.end(), [&](const std::string& entry) {
      return entry.compare(0, name.size(), name) == 0;
    });
    if (same != entries.end()) {
      *same = override;
    } else {
      entries.push_back(override);
    }
  }
  return entries;
}

// argv-style: pointers into `strings`, then a null.
std::vector<char*> null_terminated(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (auto& text : strings) pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

}  // namespace

SpawnedProcess spawn_process(const std::vector<std::string>& argv, Capture capture, bool isolate,
                             const std::vector<std::string>& environment) {
  // Built before fork: the child may only make async-signal-safe calls.
  std::vector<std::string> arg_strings = argv;
  std::vector<std::string> environment_strings = environment_with(environment);
  const auto args = null_terminated(arg_strings);
  const auto envp = null_terminated(environment_strings);
  int input[2] = {-1, -1}, output[2] = {-1, -1}, exec_error[2] = {-1, -1};
  const auto close_all = [&] {
    for (int fd : {input[0], input[1], output[0], output[1], exec_error[0], exec_error[1]}) {
      if (fd >= 0) close(fd);
    }
  };
  if ((capture == Capture::kConversation && pipe2(input, O_CLOEXEC) != 0) ||
      pipe2(output, O_CLOEXEC) != 0 || pipe2(exec_error, O_CLOEXEC) != 0) {
    const int error = errno;
    close_all();
    throw std::runtime_error(std::string("pipe: ") + strerror(error));
  }
  // What we buffered must not be written twice, by us and by the child's copy.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);

  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    exec_in_child(args.data(), envp.data(), input[0], output[1], exec_error[1], capture, isolate,
                  parent);
  }
  const int fork_error = errno;
  for (int* fd : {&input[0], &output[1], &exec_error[1]}) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
  if (pid < 0) {
    close_all();
    throw std::runtime_error(std::string("fork: ") + strerror(fork_error));
  }
  if (isolate) setpgid(pid, pid);  // also here, so the group exists before we might kill it

  int error = 0;
  ssize_t n;
  while ((n = read(exec_error[0], &error, sizeof error)) < 0 && errno == EINTR) {
  }
  close(exec_error[0]);
  if (n == sizeof error) {
    close(output[0]);
    if (input[1] >= 0) close(input[1]);
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    throw std::runtime_error("cannot run " + argv[0] + ": " + strerror(error));
  }
  return {pid, output[0], input[1]};
}

}  // namespace tracebench
