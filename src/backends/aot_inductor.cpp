// aot_inductor: PyTorch 2.x's C++ deployment path. The model is traced into a
// TorchScript module, which PyTorch's Python turns into an ExportedProgram and
// compiles with AOTInductor, freezing on (python/export_aot_inductor.py); C++
// then loads the .pt2 package and runs it with AOTIModelPackageLoader. The
// export and compile are the row's compilation latency; a package already in
// the cache (same trace, inputs, torch and CPU) is loaded instead, and the
// row's `package_cached` counter says so. On LibTorch 1.x the
// backend exists but says why it cannot run (docs/pytorch2.md).
//
// aot_inductor_bf16 compiles the same model with its weights in bfloat16,
// casting its inputs down and its outputs back to float32 inside the package
// (python/export_aot_inductor.py): inductor's bfloat16 path, on oneDNN's
// bf16 kernels where the CPU has them.

#include <torch/version.h>

#include "backends/registry.h"
#include "tracebench/tracing.h"

#if TORCH_VERSION_MAJOR >= 2
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include <filesystem>
#include <map>

#include "backends/bf16_cpu.h"
#include "backends/graph/traced_export.h"
#include "measure/environment.h"
#include "util/build_config.h"
#include "util/python_interpreter.h"
#endif

namespace tracebench {

namespace {

#if TORCH_VERSION_MAJOR >= 2

namespace fs = std::filesystem;

constexpr const char* kAotInductorPackage = "the AOTInductor package";

// The package takes and returns flat tensor lists (torch.export's pytree
// flattening); run() gives back the model's own structure (dicts, tuples).
class AotInductorModel final : public CompiledModel {
 public:
  AotInductorModel(const fs::path& package, c10::IValue output_structure)
      : loader_(package.string()), output_structure_(std::move(output_structure)) {}

  std::map<std::string, double> counters() const override { return counters_; }
  void set_counter(const std::string& name, double value) { counters_[name] = value; }
  std::vector<BackendWarning> warnings() const override { return warnings_; }
  void add_warning(BackendWarning warning) { warnings_.push_back(std::move(warning)); }

  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    return refill_outputs(output_structure_,
                          loader_.run(tensor_inputs(inputs, kAotInductorPackage)),
                          kAotInductorPackage);
  }

 private:
  torch::inductor::AOTIModelPackageLoader loader_;
  c10::IValue output_structure_;
  std::map<std::string, double> counters_;
  std::vector<BackendWarning> warnings_;
};

// The package for `model`'s trace, compiled by the exporter unless the cache
// has it (the row's `package_cached` counter says which). Inductor compiles
// with -march=native, so this CPU's features are part of the key.
std::unique_ptr<CompiledModel> compile_package(Model& model, const CompileOptions& options,
                                               Numerics numerics) {
  tensor_inputs(options.example_inputs, kAotInductorPackage);  // unsupported before any work
  Exporter exporter;
  exporter.tool = "aot_inductor";
  exporter.script = build_config::kAotInductorExporter;
  exporter.python = python_interpreter();
  exporter.cache_folder = "aoti";
  exporter.extension = ".pt2";
  exporter.constants = TensorConstants::kBuffers;
  exporter.key_extras = this_cpu_kernel_flags();
  if (numerics == Numerics::kBFloat16) exporter.arguments = {"--precision", "bf16"};
  const auto exported = export_traced_model(model, options, exporter);
  // The loader unpacks the package into a directory of its own.
  auto compiled = std::make_unique<AotInductorModel>(exported.file, exported.output_structure);
  compiled->set_counter("package_cached", exported.cached ? 1 : 0);
  if (numerics == Numerics::kBFloat16) {
    if (const auto emulated = bf16_emulated_warning()) compiled->add_warning(*emulated);
  }
  return compiled;
}

#endif

class AotInductorBackend final : public Backend {
 public:
  explicit AotInductorBackend(Numerics numerics) : numerics_(numerics) {}
  std::string description() const override {
    return numerics_ == Numerics::kBFloat16
               ? "aot_inductor with the weights in bfloat16, float32 in and out (bf16 "
                 "arithmetic); PyTorch 2.x build only"
               : "torch.export + AOTInductor package (freezing), run from C++; PyTorch 2.x "
                 "build only";
  }
  Numerics numerics() const override { return numerics_; }
  bool traces_model() const override { return true; }
  bool supports_amp() const override { return false; }  // the package's kernels are fixed
#if TORCH_VERSION_MAJOR < 2
  std::string runtime() const override { return std::string("missing: ") + kNeeds2x; }
#endif

  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
#if TORCH_VERSION_MAJOR >= 2
    // Its precision is its own: a model already cast by --bfloat16 has nothing to lower.
    if (numerics_ == Numerics::kBFloat16) require_float32(name(), options.precision);
    return compile_package(model, options, numerics_);
#else
    (void)model;
    (void)options;
    throw UnsupportedBuild(kNeeds2x);
#endif
  }

 private:
  static constexpr const char* kNeeds2x =
      "AOTInductor needs LibTorch 2.x (this build has " TORCH_VERSION
      "): build with `make build-torch2`";
  Numerics numerics_;
};

const BuiltinBackend kAotInductor("aot_inductor", [] {
  return std::make_unique<AotInductorBackend>(Numerics::kExact);
});
const BuiltinBackend kAotInductorBf16("aot_inductor_bf16", [] {
  return std::make_unique<AotInductorBackend>(Numerics::kBFloat16);
});

}  // namespace

}  // namespace tracebench
