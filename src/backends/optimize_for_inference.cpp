// ofi: trace, freeze and optimize for inference, the passes of Python's
// torch.jit.freeze + torch.jit.optimize_for_inference, applied to a graph
// traced from C++ (whose parameters are already constants, i.e. frozen).

#include <torch/csrc/jit/passes/constant_propagation.h>
#include <torch/csrc/jit/passes/frozen_conv_add_relu_fusion.h>
#include <torch/csrc/jit/passes/frozen_graph_optimizations.h>
#include <torch/csrc/jit/passes/frozen_linear_transpose.h>
#include <torch/csrc/jit/passes/frozen_ops_to_mkldnn.h>
#include <torch/csrc/jit/passes/graph_rewrite_helper.h>

#include "backends/builtin.h"
#include "backends/frozen_graph.h"
#include "backends/tracing.h"

namespace tracebench {

void optimize_frozen_graph(std::shared_ptr<torch::jit::Graph>& graph) {
  // The C++ tracer records aten::_convolution, which the conv-bn folding does
  // not match; rewrite to aten::conv2d etc. first.
  torch::jit::graph_rewrite_helper::replaceConvolutionWithAtenConv(graph);
  torch::jit::ConstantPropagation(graph);
  // What torch.jit.freeze runs: dropout removal, conv/linear-bn and
  // conv-add/mul folding, concat of linears.
  torch::jit::OptimizeFrozenGraph(graph, /*optimize_numerics=*/true);
  // What torch.jit.optimize_for_inference adds on CPU.
  torch::jit::FuseFrozenConvAddRelu(graph);
  torch::jit::ConvertFrozenOpsToMKLDNN(graph);
  torch::jit::FrozenLinearTranspose(graph);
}

namespace {

class OptimizeForInferenceBackend final : public Backend {
 public:
  std::string name() const override { return "ofi"; }
  bool traces_model() const override { return true; }
  std::string description() const override {
    return "trace + freeze + optimize_for_inference passes (BN folding, oneDNN)";
  }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    auto graph = trace_with_constant_parameters(model, options.example_inputs);
    optimize_frozen_graph(graph);
    return std::make_unique<GraphModel>(graph);
  }
};

}  // namespace

std::unique_ptr<Backend> make_optimize_for_inference_backend() {
  return std::make_unique<OptimizeForInferenceBackend>();
}

}  // namespace tracebench
