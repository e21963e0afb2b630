#include "backends/python_worker.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <numeric>

#include "backends/graph/traced_export.h"
#include "util/build_config.h"
#include "util/spawn.h"
#include "util/subprocess.h"
#include "util/text.h"

namespace tracebench {

namespace {

using nlohmann::json;

// dtype names as numpy spells them, which the worker reads.
const std::vector<std::pair<at::ScalarType, const char*>>& dtype_names() {
  static const std::vector<std::pair<at::ScalarType, const char*>> names = {
      {at::kFloat, "float32"}, {at::kDouble, "float64"}, {at::kHalf, "float16"},
      {at::kLong, "int64"},    {at::kInt, "int32"},      {at::kShort, "int16"},
      {at::kChar, "int8"},     {at::kByte, "uint8"},     {at::kBool, "bool"},
  };
  return names;
}

const char* dtype_name(at::ScalarType type) {
  for (const auto& [known, name] : dtype_names()) {
    if (known == type) return name;
  }
  throw UnsupportedModel(std::string("a Python runtime's worker takes numpy's dtypes, and ") +
                         c10::toString(type) + " is none of them");
}

at::ScalarType scalar_type(const std::string& name) {
  for (const auto& [type, known] : dtype_names()) {
    if (known == name) return type;
  }
  throw std::runtime_error("the worker returned a " + name + " tensor");
}

}  // namespace

PythonWorker::PythonWorker(const std::string& python) {
  // A worker that died must make write() fail, not kill this process.
  static std::once_flag ignore_sigpipe;
  std::call_once(ignore_sigpipe, [] { signal(SIGPIPE, SIG_IGN); });
  const auto process = spawn_process({python, build_config::kRuntimeWorker}, Capture::kConversation,
                                     /*isolate=*/true);
  pid_ = process.pid;
  to_worker_ = process.input_fd;
  from_worker_ = process.output_fd;
}

PythonWorker::~PythonWorker() {
  close(to_worker_);  // the worker ends when its stdin closes
  close(from_worker_);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

std::string PythonWorker::died() {
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) == pid_ && WIFSIGNALED(status)) {
    return std::string("the Python worker died of ") + strsignal(WTERMSIG(status));
  }
  return "the Python worker ended (its error is on stderr above)";
}

void PythonWorker::write_all(const void* data, size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = write(to_worker_, bytes, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(died());
    bytes += n;
    size -= static_cast<size_t>(n);
  }
}

void PythonWorker::read_all(void* data, size_t size) {
  auto* bytes = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = read(from_worker_, bytes, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(died());
    bytes += n;
    size -= static_cast<size_t>(n);
  }
}

json PythonWorker::request(const json& request, const std::vector<at::Tensor>& tensors,
                           std::vector<at::Tensor>& reply_tensors) {
  json message = request;
  std::vector<at::Tensor> contiguous;
  message["tensors"] = json::array();
  for (const auto& tensor : tensors) {
    contiguous.push_back(tensor.contiguous());
    message["tensors"].push_back(
        {{"dtype", dtype_name(tensor.scalar_type())}, {"shape", tensor.sizes().vec()}});
  }
  const std::string header = message.dump();
  const uint64_t length = header.size();  // little-endian: x86-64 and every target LibTorch has
  write_all(&length, sizeof length);
  write_all(header.data(), header.size());
  for (const auto& tensor : contiguous) write_all(tensor.data_ptr(), tensor.nbytes());

  uint64_t reply_length = 0;
  read_all(&reply_length, sizeof reply_length);
  std::string reply_text(reply_length, '\0');
  read_all(reply_text.data(), reply_text.size());
  const json reply = json::parse(reply_text);
  reply_tensors.clear();
  for (const auto& described : reply.value("tensors", json::array())) {
    auto tensor = at::empty(described.at("shape").get<std::vector<int64_t>>(),
                            at::TensorOptions(scalar_type(described.at("dtype"))));
    read_all(tensor.data_ptr(), tensor.nbytes());
    reply_tensors.push_back(std::move(tensor));
  }
  if (reply.contains("error")) {
    const auto error = reply.at("error").get<std::string>();
    if (reply.value("unsupported", false)) throw UnsupportedModel(error);
    throw std::runtime_error(error);
  }
  return reply;
}

WorkerModel::WorkerModel(const std::string& python, const WorkerLoad& load, int64_t threads)
    : worker_(python), model_file_(load.model_file), output_structure_(load.output_structure) {
  std::vector<at::Tensor> none;
  const auto loaded = worker_.request({{"op", "load"},
                                       {"runtime", load.runtime},
                                       {"model", load.model_file},
                                       {"threads", threads},
                                       {"options", load.options}},
                                      {}, none);
  runtime_ = loaded.at("runtime").get<std::string>() + " " +
             loaded.at("version").get<std::string>() + " (" +
             loaded.at("language").get<std::string>() + ")";
  for (const auto& [key, value] : loaded.at("settings").items()) {
    settings_[key] = value.is_string() ? value.get<std::string>() : value.dump();
  }
  counters_["worker_load_s"] = loaded.at("load_seconds").get<double>();
}

std::vector<double> WorkerModel::call(const std::vector<c10::IValue>& inputs, int64_t calls,
                                      bool outputs, std::vector<at::Tensor>& returned) {
  const auto reply = worker_.request({{"op", "run"}, {"calls", calls}, {"outputs", outputs}},
                                     tensor_inputs(inputs, "a Python runtime's worker"), returned);
  const json counters = reply.value("counters", json::object());  // items() must not outlive it
  for (const auto& [name, value] : counters.items()) {
    counters_[name] = value.get<double>();
  }
  return reply.at("seconds").get<std::vector<double>>();
}

c10::IValue WorkerModel::run(const std::vector<c10::IValue>& inputs) {
  std::vector<at::Tensor> returned;
  call(inputs, 1, /*outputs=*/true, returned);
  return refill_outputs(output_structure_, returned, runtime_);
}

double WorkerModel::seconds_per_call(const std::vector<c10::IValue>& inputs, int64_t calls) {
  std::vector<at::Tensor> unused;
  const auto seconds = call(inputs, calls, /*outputs=*/false, unused);
  return std::accumulate(seconds.begin(), seconds.end(), 0.0) / static_cast<double>(calls);
}

void WorkerModel::wait_for_quiet_threads_elsewhere() {
  std::vector<at::Tensor> none;
  worker_.request({{"op", "quiet"}}, {}, none);
}

namespace {

// `module`'s version and `python`'s, as that Python imports it; empty when it
// cannot. Asked once per process for each pair: `tracebench list` names the
// same runtime for several backends, and static int8 keys its cache by it.
std::vector<std::string> imported_versions(const std::string& python, const std::string& module) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::string>, std::vector<std::string>> found;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(python, module);
  if (const auto it = found.find(key); it != found.end()) return it->second;
  const auto result = run_command(
      {python, "-c",
       "import platform, " + module + " as m; print(m.__version__, platform.python_version())"});
  auto words = split(trim(last_nonempty_line(result.output)), ' ');
  if (result.exit_code != 0 || words.size() != 2) words.clear();
  return found[key] = words;
}

}  // namespace

std::string python_runtime_version(const std::string& python, const std::string& module,
                                   const std::string& name, const std::string& fix) {
  if (access(python.c_str(), X_OK) != 0) return "missing: no " + python + ": " + fix;
  const auto words = imported_versions(python, module);
  if (words.empty()) return "missing: " + python + " cannot import " + module + ": " + fix;
  return name + " " + words[0] + " (Python " + words[1] + ")";
}

}  // namespace tracebench
