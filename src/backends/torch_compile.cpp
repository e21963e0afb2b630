// torch_compile, torch_compile_max_autotune: PyTorch 2.x's own answer,
// torch.compile with inductor and its freezing, run where it runs, in Python:
// a worker (python_worker.h) with the build's own torch loads the trace,
// makes it an ExportedProgram's module (as aot_inductor does) and compiles
// it, mode "default" or "max-autotune-no-cudagraphs". The compile happens in
// the worker's first call, inside the row's compilation latency. On LibTorch
// 1.x the backends exist and say which build they need.

#include <torch/version.h>

#include "backends/graph/traced_export.h"
#include "backends/python_worker.h"
#include "backends/registry.h"
#include "util/python_interpreter.h"
#include "util/scratch_directory.h"

namespace tracebench {

namespace {

constexpr const char* kNeeds2x = " needs PyTorch 2.x (this build has LibTorch " TORCH_VERSION
                                 "): build with `make build-torch2`";

// The worker reads the trace when it loads; the files go with the model.
class TorchCompileModel final : public CompiledModel {
 public:
  TorchCompileModel(Model& model, const CompileOptions& options, const std::string& mode)
      : scratch_("torch-compile") {
    const auto module = scratch_ / "traced.pt", inputs = scratch_ / "inputs.pkl";
    save_trace(model, options, /*flatten_outputs=*/false, TensorConstants::kBuffers, module,
               inputs);
    nlohmann::json worker_options = {{"inputs", inputs.string()}, {"mode", mode}};
    if (options.dynamic_dim) worker_options["dynamic_dim"] = *options.dynamic_dim;
    worker_ =
        std::make_unique<WorkerModel>(python_interpreter(),
                                      WorkerLoad{"torch_compile", module.string(), worker_options,
                                                 model.forward(options.example_inputs)},
                                      options.threads);
  }
  c10::IValue run(const std::vector<c10::IValue>& inputs) override { return worker_->run(inputs); }
  double seconds_per_call(const std::vector<c10::IValue>& inputs, int64_t calls) override {
    return worker_->seconds_per_call(inputs, calls);
  }
  std::string runtime() const override { return worker_->runtime(); }
  int64_t settling_calls() const override { return worker_->settling_calls(); }
  std::map<std::string, std::string> runtime_settings() const override {
    return worker_->runtime_settings();
  }
  std::map<std::string, double> counters() const override { return worker_->counters(); }

 private:
  ScratchDirectory scratch_;
  std::unique_ptr<WorkerModel> worker_;
};

class TorchCompileBackend final : public Backend {
 public:
  explicit TorchCompileBackend(std::string mode) : mode_(std::move(mode)) {}
  std::string description() const override {
    return "torch.compile, inductor, mode " + mode_ +
           ", freezing (Python worker); PyTorch 2.x build only";
  }
  bool traces_model() const override { return true; }
  bool supports_amp() const override { return false; }
  std::string runtime() const override {
#if TORCH_VERSION_MAJOR >= 2
    return python_runtime_version(python_interpreter(), "torch", "torch.compile",
                                  "run `make torch2-env`");
#else
    return "missing: torch.compile" + std::string(kNeeds2x);
#endif
  }

  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    require_float32(name(), options.precision);
    tensor_inputs(options.example_inputs, name());
#if TORCH_VERSION_MAJOR >= 2
    return std::make_unique<TorchCompileModel>(model, options, mode_);
#else
    (void)model;
    throw UnsupportedBuild(name() + kNeeds2x);
#endif
  }

 private:
  std::string mode_;
};

const BuiltinBackend kTorchCompile("torch_compile",
                                   [] { return std::make_unique<TorchCompileBackend>("default"); });
const BuiltinBackend kTorchCompileMaxAutotune("torch_compile_max_autotune", [] {
  return std::make_unique<TorchCompileBackend>("max-autotune-no-cudagraphs");
});

}  // namespace

}  // namespace tracebench
