#include "runner/isolation.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include <torch/torch.h>

#include "report/row_json.h"
#include "runner/suite.h"
#include "runner/process_settings.h"
#include "tracebench/error.h"

namespace tracebench {

namespace {

std::vector<ResultRow> status_rows(const std::string& model, const RunOptions& options,
                                   const char* status, const std::string& error) {
  std::vector<ResultRow> rows;
  for (const auto& backend : options.backends) {
    ResultRow row;
    row.model = model;
    row.backend = backend;
    row.mode = options.mode == Mode::kTraining ? "train" : "eval";
    row.status = status;
    row.error = error.substr(0, error.find('\n'));
    rows.push_back(row);
  }
  return rows;
}

std::string self_executable() {
  char buffer[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  if (n <= 0) return "/proc/self/exe";
  return std::string(buffer, static_cast<size_t>(n));
}

std::filesystem::path fresh_rows_file() {
  static std::atomic<int> counter{0};
  std::error_code ignored;
  const auto dir = std::filesystem::temp_directory_path(ignored);
  return (ignored ? std::filesystem::path("/tmp") : dir) /
         ("tracebench-rows-" + std::to_string(getpid()) + "-" + std::to_string(counter++) +
          ".jsonl");
}

std::string join(const std::vector<std::string>& items, char separator) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : std::string(1, separator)) + item;
  return text;
}

// The rows the child wrote, by backend. A line cut short by a crash is skipped.
std::map<std::string, ResultRow> read_rows(const std::filesystem::path& path) {
  std::map<std::string, ResultRow> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    try {
      ResultRow row = row_from_json_line(line);
      rows[row.backend] = std::move(row);
    } catch (const std::exception&) {
    }
  }
  return rows;
}

struct ChildOutcome {
  bool timed_out = false;
  int wait_status = 0;
};

ChildOutcome run_child(const std::vector<std::string>& argv, double timeout_s) {
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::cout.flush();
  std::cerr.flush();

  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + strerror(errno));
  if (pid == 0) {
    // Dies with the parent: a `kill -9` of the suite leaves no orphan running.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    execv(args[0], args.data());
    const char message[] = "tracebench: cannot start a child process for isolation\n";
    ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
    (void)ignored;
    _exit(127);
  }

  ChildOutcome outcome;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(timeout_s));
  for (;;) {
    const pid_t done = waitpid(pid, &outcome.wait_status, WNOHANG);
    if (done == pid) return outcome;
    if (done < 0 && errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + strerror(errno));
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(pid, SIGKILL);
      while (waitpid(pid, &outcome.wait_status, 0) < 0 && errno == EINTR) {
      }
      outcome.timed_out = true;
      return outcome;
    }
    const timespec pause{0, 20 * 1000 * 1000};
    nanosleep(&pause, nullptr);
  }
}

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

std::vector<ResultRow> run_in_child(const ModelSpec& spec, const RunOptions& options) {
  const auto rows_file = fresh_rows_file();
  std::vector<std::string> argv = {self_executable()};
  argv.insert(argv.end(), options.child_args.begin(), options.child_args.end());
  argv.push_back("--backend=" + join(options.backends, ','));
  argv.push_back("--only=" + model_spec_text(spec));
  argv.push_back("--rows-to=" + rows_file.string());

  const ChildOutcome outcome = run_child(argv, options.timeout_s);
  auto returned = read_rows(rows_file);
  std::error_code ignored;
  std::filesystem::remove(rows_file, ignored);

  const char* status = nullptr;
  std::string error;
  const int ws = outcome.wait_status;
  if (outcome.timed_out) {
    status = status::kTimeout;
    error = "no result within --timeout " + seconds_text(options.timeout_s) + " s; killed";
  } else if (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL) {
    status = status::kOom;
    error = "killed by SIGKILL (out of memory?)";
  } else if (WIFSIGNALED(ws)) {
    status = status::kCrash;
    error = "killed by signal " + signal_name(WTERMSIG(ws));
    if (const char* description = strsignal(WTERMSIG(ws))) error += std::string(" (") + description + ")";
  } else if (WIFEXITED(ws) && WEXITSTATUS(ws) != 0) {
    status = status::kCrash;
    error = "exited with code " + std::to_string(WEXITSTATUS(ws));
  } else {
    status = status::kCrash;
    error = "exited without reporting a result";
  }

  // Rows the child finished are kept even if it died afterwards.
  std::vector<ResultRow> rows = status_rows(spec.name, options, status, error);
  for (auto& row : rows) {
    auto it = returned.find(row.backend);
    if (it != returned.end()) row = it->second;
  }
  return rows;
}

void write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(std::string("write: ") + strerror(errno));
    done += static_cast<size_t>(n);
  }
}

}  // namespace

std::string signal_name(int signal) {
  static const std::map<int, const char*> kNames = {
      {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
      {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
      {SIGPIPE, "SIGPIPE"}, {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"},   {SIGHUP, "SIGHUP"},
      {SIGQUIT, "SIGQUIT"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGALRM, "SIGALRM"}};
  auto it = kNames.find(signal);
  return it != kNames.end() ? it->second : "signal " + std::to_string(signal);
}

void mark_out_of_memory(std::vector<ResultRow>& rows) {
  for (auto& row : rows) {
    if (row.passed()) continue;
    const std::string& e = row.error;
    if (e.find("bad_alloc") != std::string::npos ||
        e.find("can't allocate memory") != std::string::npos ||
        e.find("out of memory") != std::string::npos) {
      row.status = status::kOom;
    }
  }
}

std::string model_spec_text(const ModelSpec& spec) {
  if (!spec.from_path) return spec.name;
  return "path:" + spec.path.string() + ",class:" + spec.name;
}

std::vector<ResultRow> run_model(const ModelSpec& spec, const RunOptions& options, bool isolate) {
  auto rows = isolate ? run_in_child(spec, options) : run_model_in_process(spec, options);
  mark_out_of_memory(rows);
  return rows;
}

int run_isolated_child(const RunOptions& options) {
  validate(options);
  const auto specs = select_models(options);
  apply_process_settings(options);
  const int fd = open(options.rows_to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw UsageError("cannot write " + options.rows_to + ": " + strerror(errno));
  for (const auto& spec : specs) {
    std::vector<ResultRow> rows;
    try {
      rows = run_model_in_process(spec, options);
    } catch (const UsageError& error) {
      // In a suite a model the user got wrong is one bad row, not the end of the run.
      rows = status_rows(spec.name, options, status::kModelFailToLoad, error.what());
    }
    mark_out_of_memory(rows);
    for (const auto& row : rows) write_all(fd, row_to_json_line(row) + "\n");
  }
  close(fd);
  return 0;
}

}  // namespace tracebench
