// ts: the model traced into a TorchScript graph, run by the JIT graph executor
// with its default optimizations (profiling, fusion where the build has a fuser).
// Inference: parameters are graph constants. Training: they are graph inputs.

#include "backends/registry.h"
#include "tracebench/tracing.h"

namespace tracebench {

namespace {

class TorchScriptBackend final : public Backend {
 public:
  bool traces_model() const override { return true; }
  std::string description() const override {
    return "TorchScript trace run by the JIT graph executor";
  }
  bool supports_training() const override { return true; }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    if (options.mode == Mode::kTraining) {
      // Parameters stay graph inputs so gradients reach them and the
      // optimizer's updates are seen by the next call.
      return std::make_unique<GraphExecutorModel>(
          trace_model_graph_with_tensor_inputs(model, options.example_inputs), &model);
    }
    return std::make_unique<GraphExecutorModel>(inference_graph(model, options));
  }
};

const BuiltinBackend kTs("ts", [] { return std::make_unique<TorchScriptBackend>(); });

}  // namespace

}  // namespace tracebench
