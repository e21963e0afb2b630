#include "orchestration/isolation.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "accuracy_check/accuracy.h"
#include "execution/child_phase.h"
#include "execution/execution_settings.h"
#include "execution/status_rows.h"
#include "orchestration/child_process.h"
#include "orchestration/launcher.h"
#include "orchestration/validate_options.h"
#include "performance/performance.h"
#include "report/row_json.h"
#include "screening/model_selection.h"
#include "sources/load_model.h"
#include "tracebench/error.h"
#include "util/error_text.h"
#include "util/text.h"

namespace tracebench {

namespace {

// A line of the rows file that is not a row: the child's UsageError, which
// the parent raises again (one line and exit 2 for a single model).
constexpr const char* kUsageErrorPrefix = "#usage-error ";

std::string self_executable() {
  char buffer[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  if (n <= 0) return "/proc/self/exe";
  return std::string(buffer, static_cast<size_t>(n));
}

std::filesystem::path fresh_child_file(const char* suffix) {
  static std::atomic<int> counter{0};
  std::error_code ignored;
  const auto dir = std::filesystem::temp_directory_path(ignored);
  return (ignored ? std::filesystem::path("/tmp") : dir) /
         ("tracebench-child-" + std::to_string(getpid()) + "-" + std::to_string(counter++) +
          suffix);
}

// What one child process handed back.
struct ChildReport : ChildRows {
  ChildActivity last_activity;
  ChildResult process;
};

ChildReport read_report(const std::filesystem::path& rows_file) {
  std::ifstream in(rows_file);
  return {parse_child_rows(
              std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>())),
          {},
          {}};
}

ChildReport run_child(const ModelSpec& spec, const ModelRun& run, std::ostream& err) {
  const RunOptions& options = run.request;
  const auto rows_file = fresh_child_file(".jsonl");
  const auto phase_file = fresh_child_file(".phase");
  std::vector<std::string> argv = {self_executable()};
  argv.insert(argv.end(), options.child_args.begin(), options.child_args.end());
  for (auto& argument : model_run_arguments(run)) argv.push_back(std::move(argument));
  argv.push_back("--only=" + model_spec_text(spec));
  argv.push_back("--rows-to=" + rows_file.string());
  argv.push_back("--phase-to=" + phase_file.string());

  const ChildResult process =
      run_child_process(argv, child_environment(options, run.point), options.timeout_s, err);
  ChildReport report = read_report(rows_file);
  report.last_activity = read_child_phase_board(phase_file);
  report.process = process;
  std::error_code ignored;
  std::filesystem::remove(rows_file, ignored);
  std::filesystem::remove(phase_file, ignored);
  return report;
}

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

// How the child ended, as a row status and the error's start; nullptr status
// for a clean exit.
struct Death {
  const char* status = nullptr;
  std::string how;
};

Death death_of(const ChildResult& process, double timeout_s) {
  const int ws = process.wait_status;
  if (process.timed_out) {
    return {status::kTimeout,
            "no result within --timeout " + seconds_text(timeout_s) + " s; killed"};
  }
  if (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL) {
    return {status::kOom, "killed by SIGKILL (out of memory?)"};
  }
  if (WIFSIGNALED(ws)) {
    std::string how = "killed by signal " + signal_name(WTERMSIG(ws));
    if (const char* description = strsignal(WTERMSIG(ws)))
      how += std::string(" (") + description + ")";
    return {status::kCrash, how};
  }
  if (WIFEXITED(ws) && WEXITSTATUS(ws) != 0) {
    return {status::kCrash, "exited with code " + std::to_string(WEXITSTATUS(ws))};
  }
  return {};
}

// The backend that was in flight when the child died, if a compared backend
// was (not the eager baseline, not loading).
std::string culprit_of(const ChildReport& report, const std::vector<std::string>& backends) {
  const ChildActivity& activity = report.last_activity;
  if (activity.baseline || activity.phase == ChildPhase::kStarting ||
      activity.phase == ChildPhase::kLoading) {
    return "";
  }
  const bool requested =
      std::find(backends.begin(), backends.end(), activity.backend) != backends.end();
  return requested && !report.rows.count(activity.backend) ? activity.backend : "";
}

std::string death_error(const Death& death, const ChildReport& report) {
  std::string error = death.how;
  if (report.last_activity.phase != ChildPhase::kStarting) {
    error += " while " + report.last_activity.describe();
  }
  const std::string message = death_message(report.process.stderr_tail);
  if (!message.empty()) error += ": " + message;
  return error;
}

std::vector<std::string> without(const std::vector<std::string>& backends,
                                 const std::map<std::string, ResultRow>& done) {
  std::vector<std::string> left;
  for (const auto& backend : backends) {
    if (!done.count(backend)) left.push_back(backend);
  }
  return left;
}

// Runs the model in children until every backend has a row: a child that
// dies with a compared backend in flight costs that backend (a crash,
// timeout or OOM row naming it and how to reproduce it), and the model runs
// again without it. A death while loading or in the eager baseline costs
// every backend still without a row.
std::vector<ResultRow> run_in_children(const ModelSpec& spec, const ModelRun& run,
                                       std::ostream& err) {
  std::map<std::string, ResultRow> done;
  std::vector<BackendWarning> skipped_candidates;  // auto's, with how each killed a child
  ModelRun attempt = run;
  while (!attempt.backends.empty()) {
    ChildReport report = run_child(spec, attempt, err);
    if (!report.usage_error.empty()) throw UsageError(report.usage_error);
    for (auto& [backend, row] : report.rows) done[backend] = std::move(row);
    for (const auto& [backend, message] : report.unreadable) {
      err << "tracebench: " << spec.name << ": " << message << "\n";
      if (std::find(attempt.backends.begin(), attempt.backends.end(), backend) !=
          attempt.backends.end()) {
        done[backend] = status_row(spec.name, backend, run, status::kFailToRun, message);
      }
    }

    Death death = death_of(report.process, run.request.timeout_s);
    const std::vector<std::string> missing = without(attempt.backends, done);
    if (missing.empty()) break;
    if (!death.status) death = {status::kCrash, "exited without reporting a result"};
    std::string error = death_error(death, report);
    for (const auto& [backend, message] : report.unreadable) {
      if (backend.empty()) error += "; " + message;
    }
    const std::string culprit = culprit_of(report, missing);
    const std::string& candidate = report.last_activity.candidate;
    if (!culprit.empty() && !candidate.empty() &&
        std::find(attempt.auto_skip.begin(), attempt.auto_skip.end(), candidate) ==
            attempt.auto_skip.end()) {
      // auto goes on without the candidate that killed it, and its row says so.
      skipped_candidates.push_back(
          {"auto_dropped", candidate + " killed the model's process: " + error});
      attempt.auto_skip.push_back(candidate);
      attempt.backends = missing;
      continue;
    }
    if (culprit.empty()) {
      for (const auto& backend : missing) {
        done[backend] = status_row(spec.name, backend, run, death.status, error);
      }
      break;
    }
    done[culprit] = status_row(spec.name, culprit, run, death.status,
                               error + "; reproduce: --only=" + model_spec_text(spec) +
                                   " --backend=" + culprit + " --no-isolation");
    attempt.backends = without(missing, done);
  }
  for (const auto& warning : skipped_candidates) {
    done.at("auto").add_warning(warning.code, "auto: " + warning.message);
  }
  std::vector<ResultRow> rows;
  for (const auto& backend : run.backends) rows.push_back(done.at(backend));
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

ChildRows parse_child_rows(const std::string& text) {
  ChildRows parsed;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) break;  // cut short: the death's row says why
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    if (line.rfind(kUsageErrorPrefix, 0) == 0) {
      parsed.usage_error =
          nlohmann::json::parse(line.substr(std::strlen(kUsageErrorPrefix))).get<std::string>();
      continue;
    }
    try {
      ResultRow row = row_from_json_line(line);
      parsed.rows[row.backend] = std::move(row);
    } catch (const std::exception& error) {
      const auto json = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      const bool named =
          json.is_object() && json.contains("backend") && json["backend"].is_string();
      constexpr size_t kShown = 120;
      parsed.unreadable.emplace_back(
          named ? json["backend"].get<std::string>() : "",
          "the model's process wrote a row this tracebench cannot read (" +
              first_line(error.what()) + "): " + line.substr(0, kShown) +
              (line.size() > kShown ? "..." : ""));
    }
  }
  return parsed;
}

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

std::vector<ResultRow> run_model_in_process(const ModelSpec& spec, const ModelRun& run) {
  const RunOptions& options = run.request;
  LoadOptions load_options;
  load_options.batch_size = run.point.batch_size;
  load_options.weights = options.weights;
  load_options.inputs_file = options.inputs_file;
  if (!options.input_shapes.empty()) {
    load_options.input_shapes = parse_input_shapes(options.input_shapes);
  }
  load_options.seed = options.seed;  // same parameters in every run and for every backend
  LoadedModel loaded;
  publish_child_phase(ChildPhase::kLoading);
  try {
    loaded = load_model(spec, load_options);
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& error) {
    return status_rows(spec.name, run, status::kModelFailToLoad, describe_error(error));
  }
  auto rows = options.accuracy ? check_accuracy(loaded, run) : measure_performance(loaded, run);
  // As this process found it: whether what --malloc asked for took effect.
  const std::string allocator = allocator_in_use();
  for (auto& row : rows) row.allocator = allocator;
  return rows;
}

std::vector<ResultRow> run_model(const ModelSpec& spec, const ModelRun& run, std::ostream& err) {
  auto rows =
      run.request.isolate ? run_in_children(spec, run, err) : run_model_in_process(spec, run);
  mark_out_of_memory(rows);
  return rows;
}

int run_isolated_child(const RunOptions& options) {
  validate(options);
  // The parent hands a child one point of its sweep, and its model's run
  // (settings/model_run.h's model_run_arguments): read back, it is the parent's.
  const ModelRun run = first_point_run(options);
  const auto specs = select_models(options);
  apply_process_settings(options, run.point);
  if (!options.phase_to.empty()) open_child_phase_board(options.phase_to);
  const int fd = open(options.rows_to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw UsageError("cannot write " + options.rows_to + ": " + strerror(errno));
  for (const auto& spec : specs) {
    std::vector<ResultRow> rows;
    try {
      rows = run_model_in_process(spec, run);
    } catch (const UsageError& error) {
      // As JSON: a compiler's message spans lines.
      write_all(fd, kUsageErrorPrefix + nlohmann::json(error.what()).dump() + "\n");
      continue;
    }
    mark_out_of_memory(rows);
    for (const auto& row : rows) write_all(fd, row_to_json_line(row) + "\n");
  }
  close(fd);
  return 0;
}

}  // namespace tracebench
