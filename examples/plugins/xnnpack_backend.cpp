// An example backend plugin: trace, fold, and hand linear/conv2d to XNNPACK,
// much as torch.utils.mobile_optimizer.optimize_for_mobile does.
//
//   tracebench --performance --backend-plugin examples/plugins/xnnpack_backend.cpp \
//              --backend=eager,xnnpack -k small_convnet
//
// tracebench compiles this file with its own compiler and flags, caches the
// library, and registers every backend exported with TRACEBENCH_REGISTER_BACKEND.

#include <tracebench/backend.h>
#include <tracebench/tracing.h>

#include <torch/csrc/jit/passes/constant_propagation.h>
#include <torch/csrc/jit/passes/frozen_conv_folding.h>
#include <torch/csrc/jit/passes/remove_dropout.h>
#include <torch/csrc/jit/passes/xnnpack_rewrite.h>

namespace {

class XnnpackBackend : public tracebench::Backend {
 public:
  std::string name() const override { return "xnnpack"; }
  std::string description() const override {
    return "plugin: trace, fold conv-bn, prepack linear/conv2d for XNNPACK "
           "(optimize_for_mobile-like)";
  }

  std::unique_ptr<tracebench::CompiledModel> compile(
      tracebench::Model& model, const tracebench::CompileOptions& options) override {
    if (options.mode != tracebench::Mode::kInference) {
      throw std::runtime_error("xnnpack: inference only");
    }
    auto graph = tracebench::trace_model_graph(model, options.example_inputs);
    // Parameters are already constants: what freezing would do next.
    torch::jit::removeDropout(graph);
    torch::jit::FoldFrozenConvBatchnorm(graph);
    torch::jit::FoldFrozenConvAddOrSub(graph);
    torch::jit::FoldFrozenConvMulOrDiv(graph);
    torch::jit::ConstantPropagation(graph);
    // linear/conv2d -> prepacked::*_prepack + *_run; constant propagation then
    // runs the prepack ops once, leaving packed weights as graph constants.
    torch::jit::insertPrePackedOps(graph);
    torch::jit::ConstantPropagation(graph, /*ignore_custom_classes=*/false);
    prepacked_ops_ = 0;
    for (const auto* node : graph->nodes()) {
      if (std::string(node->kind().toQualString()).rfind("prepacked::", 0) == 0) ++prepacked_ops_;
    }
    return std::make_unique<Compiled>(graph, prepacked_ops_);
  }

 private:
  class Compiled : public tracebench::GraphExecutorModel {
   public:
    Compiled(std::shared_ptr<torch::jit::Graph> graph, int prepacked)
        : GraphExecutorModel(std::move(graph)), prepacked_(prepacked) {}
    std::map<std::string, double> counters() const override {
      return {{"xnnpack_prepacked_ops", static_cast<double>(prepacked_)}};
    }

   private:
    int prepacked_;
  };
  int prepacked_ops_ = 0;
};

}  // namespace

TRACEBENCH_REGISTER_BACKEND(xnnpack, XnnpackBackend)
