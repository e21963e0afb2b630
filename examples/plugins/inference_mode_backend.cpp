// An example backend plugin: eager, but each call under c10::InferenceMode
// instead of the harness's NoGradGuard. Inference mode also skips the
// version counters and view tracking that autograd keeps even with grad off,
// which is what a C++ deployment would use; this backend measures what that
// is worth on each model.
//
//   tracebench --performance --backend-plugin examples/plugins/inference_mode_backend.cpp \
//              --backend=eager,inference_mode -k small_convnet
//
// tracebench compiles this file with its own compiler and flags, caches the
// library, and registers every backend exported with TRACEBENCH_REGISTER_BACKEND.
// A plugin that traces uses <tracebench/tracing.h>, as the built-in backends do.

#include <c10/core/InferenceMode.h>
#include <tracebench/backend.h>

namespace {

class InferenceModeModel : public tracebench::CompiledModel {
 public:
  explicit InferenceModeModel(tracebench::Model& model) : model_(model) {}

  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    c10::InferenceMode inference_mode;
    ++calls_;
    return model_.forward(inputs);
  }

  // Reported in the row's counters (JSON and HTML).
  std::map<std::string, double> counters() const override {
    return {{"inference_mode_calls", static_cast<double>(calls_)}};
  }

 private:
  tracebench::Model& model_;
  int64_t calls_ = 0;
};

class InferenceModeBackend : public tracebench::Backend {
 public:
  std::string description() const override {
    return "plugin: eager with every call under c10::InferenceMode";
  }
  // Training needs autograd, which inference mode turns off: the harness
  // makes that an `unsupported` row (supports_training() is false by default).
  std::unique_ptr<tracebench::CompiledModel> compile(tracebench::Model& model,
                                                     const tracebench::CompileOptions&) override {
    return std::make_unique<InferenceModeModel>(model);
  }
};

}  // namespace

TRACEBENCH_REGISTER_BACKEND(inference_mode, InferenceModeBackend)
