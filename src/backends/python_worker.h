#pragma once
// The seam for backends whose runtime is reached from Python (ONNX Runtime's
// wheel has no C++ headers; torch.compile is Python by nature): a worker
// process, python/runtime_worker.py, loads the model into the runtime and
// runs the calls the harness asks for, timing each one itself, so that
// moving tensors between the processes stays outside every sample. The
// harness's statistics, sample order, accuracy checks, isolation and reports
// apply unchanged: to them a WorkerModel is a CompiledModel like any other.
//
// The exchange, over the worker's stdin and stdout: a message is an 8-byte
// little-endian length, that many bytes of JSON, then the raw bytes of each
// tensor the JSON's "tensors" list describes ({"dtype", "shape"}, C order).
//   {"op": "load", "runtime", "model", "threads", "options"}
//       -> {"runtime", "version", "language", "settings", "load_seconds"}
//   {"op": "run", "calls": N, "outputs": bool, "tensors": inputs}
//       -> {"seconds": [N per-call times], "tensors": the last call's outputs or []}
//   {"op": "quiet"} -> {} once the runtime's threads no longer spin
// A failed request answers {"error": "Kind: first line", "unsupported": bool}.
// The worker ends when its stdin closes.

#include <ATen/core/ivalue.h>
#include <sys/types.h>

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tracebench/backend.h"

namespace tracebench {

/// One worker process. Not thread-safe: each --streams instance has its own.
class PythonWorker {
 public:
  /// Starts `python` on python/runtime_worker.py. It dies with this process.
  explicit PythonWorker(const std::string& python);
  ~PythonWorker();
  PythonWorker(const PythonWorker&) = delete;
  PythonWorker& operator=(const PythonWorker&) = delete;

  /// Sends `request` with `tensors` and returns the reply, its tensors in
  /// `reply_tensors`. Throws UnsupportedModel or std::runtime_error with the
  /// worker's error line, or std::runtime_error if the worker died.
  nlohmann::json request(const nlohmann::json& request, const std::vector<at::Tensor>& tensors,
                         std::vector<at::Tensor>& reply_tensors);

 private:
  void write_all(const void* data, size_t size);
  void read_all(void* data, size_t size);
  std::string died();

  pid_t pid_ = -1;
  int to_worker_ = -1;
  int from_worker_ = -1;
};

/// What a worker-run backend loads.
struct WorkerLoad {
  std::string runtime;           // the worker's name for it: "onnxruntime", "torch_compile"
  std::string model_file;        // what the runtime reads
  nlohmann::json options;        // runtime-specific ({} for none)
  c10::IValue output_structure;  // refill_outputs' structure (traced_export.h)
};

/// A model loaded into a runtime in a worker process.
class WorkerModel final : public CompiledModel {
 public:
  /// Starts a worker with `python` and loads `load` there with `threads`
  /// intra-op threads.
  WorkerModel(const std::string& python, const WorkerLoad& load, int64_t threads);

  c10::IValue run(const std::vector<c10::IValue>& inputs) override;
  double seconds_per_call(const std::vector<c10::IValue>& inputs, int64_t calls) override;
  std::string runtime() const override { return runtime_; }
  // Its process shares the cores with this one's OpenMP threads (CompiledModel).
  int64_t settling_calls() const override { return 1; }
  void wait_for_quiet_threads_elsewhere() override;
  std::map<std::string, std::string> runtime_settings() const override { return settings_; }
  std::map<std::string, double> counters() const override { return counters_; }
  void set_counter(const std::string& name, double value) { counters_[name] = value; }
  std::vector<BackendWarning> warnings() const override { return warnings_; }
  void add_warning(BackendWarning warning) { warnings_.push_back(std::move(warning)); }
  /// What --save-optimized copies: the file the runtime loaded.
  SaveableGraph saveable_graph() const override { return {nullptr, "", {model_file_}}; }

 private:
  // `calls` calls timed in the worker; the last one's outputs when `outputs` is set.
  std::vector<double> call(const std::vector<c10::IValue>& inputs, int64_t calls, bool outputs,
                           std::vector<at::Tensor>& returned);

  PythonWorker worker_;
  std::string model_file_;
  c10::IValue output_structure_;
  std::string runtime_;
  std::map<std::string, std::string> settings_;
  std::map<std::string, double> counters_;
  std::vector<BackendWarning> warnings_;
};

/// The runtime `module` of the worker's Python has, as "NAME VERSION (Python X.Y.Z)",
/// or "missing: " and why; for `tracebench list` and static int8's cache key
/// (starts that Python once per process for each module).
std::string python_runtime_version(const std::string& python, const std::string& module,
                                   const std::string& name, const std::string& fix);

}  // namespace tracebench
