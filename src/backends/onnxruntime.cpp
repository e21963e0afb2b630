// onnxruntime: Microsoft's ONNX Runtime on its CPU execution provider, every
// graph optimization on (ORT_ENABLE_ALL) and the run's intra-op threads, as
// its users call it from Python: its PyPI wheel has no C++ headers, so the
// model runs in a Python worker (python_worker.h) with the peer runtimes'
// environment (scripts/setup-peers.sh). The model is the trace's ONNX export
// (traced_export.h), which the openvino backends read too.

#include "backends/graph/traced_export.h"
#include "backends/python_worker.h"
#include "backends/registry.h"
#include "util/python_interpreter.h"

namespace tracebench {

namespace {

constexpr const char* kFix = "run `make peers-env` (scripts/setup-peers.sh)";

class OnnxRuntimeBackend final : public Backend {
 public:
  std::string description() const override {
    return "ONNX Runtime's CPU provider, all graph optimizations (Python worker, ONNX export)";
  }
  bool traces_model() const override { return true; }
  bool supports_amp() const override { return false; }  // its kernels, not LibTorch's
  std::string runtime() const override {
    return python_runtime_version(runtime_python(), "onnxruntime", "ONNX Runtime", kFix);
  }

  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    require_float32(name(), options.precision);
    const auto exported = export_onnx(model, options);
    auto compiled = std::make_unique<WorkerModel>(
        runtime_python(),
        WorkerLoad{"onnxruntime", exported.file.string(), nlohmann::json::object(),
                   exported.output_structure},
        options.threads);
    compiled->set_counter("onnx_cached", exported.cached ? 1 : 0);
    return compiled;
  }
};

const BuiltinBackend kOnnxruntime("onnxruntime",
                                  [] { return std::make_unique<OnnxRuntimeBackend>(); });

}  // namespace

}  // namespace tracebench
