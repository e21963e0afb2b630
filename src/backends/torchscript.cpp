// ts: the model traced into a TorchScript graph, run by the JIT graph executor
// with its default optimizations (profiling, fusion where the build has a fuser).

#include "backends/builtin.h"
#include "backends/tracing.h"

namespace tracebench {

namespace {

class TorchScriptBackend final : public Backend {
 public:
  std::string name() const override { return "ts"; }
  std::string description() const override {
    return "TorchScript trace run by the JIT graph executor";
  }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    return std::make_unique<GraphModel>(
        trace_with_constant_parameters(model, options.example_inputs));
  }
};

}  // namespace

std::unique_ptr<Backend> make_torchscript_backend() {
  return std::make_unique<TorchScriptBackend>();
}

}  // namespace tracebench
