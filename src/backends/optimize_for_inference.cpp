// ofi: trace with the parameters as constants (a frozen graph), then the
// passes of Python's torch.jit.freeze + torch.jit.optimize_for_inference
// (backends/graph/frozen_graph.cpp).

#include "backends/graph/frozen_graph.h"
#include "backends/registry.h"
#include "tracebench/tracing.h"

namespace tracebench {

namespace {

class OptimizeForInferenceBackend final : public Backend {
 public:
  bool traces_model() const override { return true; }
  std::string description() const override {
    return "trace + freeze + optimize_for_inference passes (BN folding, oneDNN)";
  }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    auto graph = inference_graph(model, options);
    freeze_graph(graph);
    const auto saveable = optimize_for_inference_keeping_saveable(graph);
    auto compiled = std::make_unique<GraphExecutorModel>(graph);
    compiled->set_saveable_graph(saveable);
    return compiled;
  }
};

const BuiltinBackend kOfi("ofi", [] { return std::make_unique<OptimizeForInferenceBackend>(); });

}  // namespace

}  // namespace tracebench
