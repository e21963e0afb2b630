// onnxruntime, onnxruntime_int8: Microsoft's ONNX Runtime on its CPU
// execution provider, every graph optimization on (ORT_ENABLE_ALL) and the
// run's intra-op threads, as its users call it from Python: its PyPI wheel
// has no C++ headers, so the model runs in a Python worker (python_worker.h)
// with the peer runtimes' environment (scripts/setup-peers.sh). The model is
// the trace's ONNX export (traced_export.h), which the openvino backends read
// too; for onnxruntime_int8, that export quantized statically (static_int8.h).

#include "backends/graph/traced_export.h"
#include "backends/int8_cpu.h"
#include "backends/python_worker.h"
#include "backends/registry.h"
#include "backends/static_int8.h"
#include "util/python_interpreter.h"

namespace tracebench {

namespace {

constexpr const char* kFix = "run `make peers-env` (scripts/setup-peers.sh)";

class OnnxRuntimeBackend final : public Backend {
 public:
  explicit OnnxRuntimeBackend(Numerics numerics) : numerics_(numerics) {}

  std::string description() const override {
    return numerics_ == Numerics::kInt8 ? "ONNX Runtime's CPU provider on the ONNX export "
                                          "quantized to int8 with calibration "
                                          "(QDQ, u8 activations, s8 weights; Python worker)"
                                        : "ONNX Runtime's CPU provider, all graph optimizations "
                                          "(Python worker, ONNX export)";
  }
  bool traces_model() const override { return true; }
  bool supports_amp() const override { return false; }  // its kernels, not LibTorch's
  Numerics numerics() const override { return numerics_; }
  std::string runtime() const override {
    return python_runtime_version(runtime_python(), "onnxruntime", "ONNX Runtime", kFix);
  }

  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    require_float32(name(), options.precision);
    if (numerics_ == Numerics::kInt8) {
      const auto quantized = export_int8_onnx(model, options);
      auto compiled = load(quantized.model, options);
      compiled->set_counter("int8_cached", quantized.model.cached ? 1 : 0);
      if (quantized.reduced_range) compiled->add_warning(int8_reduced_range_warning());
      return compiled;
    }
    const auto exported = export_onnx(model, options);
    auto compiled = load(exported, options);
    compiled->set_counter("onnx_cached", exported.cached ? 1 : 0);
    return compiled;
  }

 private:
  static std::unique_ptr<WorkerModel> load(const ExportedModel& exported,
                                           const CompileOptions& options) {
    return std::make_unique<WorkerModel>(
        runtime_python(),
        WorkerLoad{"onnxruntime", exported.file.string(), nlohmann::json::object(),
                   exported.output_structure},
        options.threads);
  }

  Numerics numerics_;
};

const BuiltinBackend kOnnxruntime("onnxruntime", [] {
  return std::make_unique<OnnxRuntimeBackend>(Numerics::kExact);
});
const BuiltinBackend kOnnxruntimeInt8("onnxruntime_int8", [] {
  return std::make_unique<OnnxRuntimeBackend>(Numerics::kInt8);
});

}  // namespace

}  // namespace tracebench
