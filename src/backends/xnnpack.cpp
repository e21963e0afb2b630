// xnnpack: the frozen graph's conv2d and linear layers handed to XNNPACK, the
// route torch.utils.mobile_optimizer takes, done on the traced graph (its
// optimizeForMobile on a traced module computes wrong results in LibTorch
// 1.13, the graph route does not):
//   - conv1d becomes conv2d, then conv2d/linear become prepacked::*_prepack +
//     *_run; a relu or hardtanh right after is fused into the run as its
//     output clamp;
//   - constant propagation runs the prepack ops once, so the packed weights
//     are graph constants;
//   - XNNPACK computes in NHWC: weights are packed channels-last, and each
//     convolution's output stays channels-last for the next one.
// XNNPACK has a thread pool of its own (LibTorch's intra-op thread count).
// While it runs, LibTorch's OpenMP team must not spin on the same cores, so
// each call runs with an OpenMP team of one (10-50x slower otherwise;
// docs/backends.md).

#include <omp.h>
#include <torch/csrc/jit/passes/constant_propagation.h>
#include <torch/csrc/jit/passes/subgraph_rewrite.h>
#include <torch/csrc/jit/passes/xnnpack_rewrite.h>

#include "backends/graph/frozen_graph.h"
#include "backends/registry.h"
#include "tracebench/tracing.h"
#include "util/text.h"

namespace tracebench {

namespace {

// The clamp a following activation amounts to, as the prepack op's
// (output_min, output_max) arguments in IR.
struct FusedActivation {
  const char* call;     // the activation on %result, as IR
  const char* min_max;  // IR defining %output_min and %output_max
};

// prepack(..., None, None) + run + activation -> prepack(..., min, max) + run.
void fuse_activations_into_packed_ops(std::shared_ptr<torch::jit::Graph>& graph) {
  static const FusedActivation kActivations[] = {
      {"aten::relu(%result)",
       "%output_min : float = prim::Constant[value=0.]()\n"
       "      %output_max : NoneType = prim::Constant()"},
      {"aten::relu_(%result)",
       "%output_min : float = prim::Constant[value=0.]()\n"
       "      %output_max : NoneType = prim::Constant()"},
      {"aten::hardtanh(%result, %output_min, %output_max)", ""},
      {"aten::hardtanh_(%result, %output_min, %output_max)", ""},
  };
  struct PackedOp {
    const char* parameters;  // the prepack's arguments before its min and max
    const char* prepack;     // as IR: "%packed : TYPE = OP" (the IR parser types it so)
    const char* run;
  };
  static const PackedOp kPackedOps[] = {
      {"%weight, %bias, %stride, %padding, %dilation, %groups",
       "%packed : __torch__.torch.classes.xnnpack.Conv2dOpContext = "
       "prepacked::conv2d_clamp_prepack",
       "prepacked::conv2d_clamp_run"},
      {"%weight, %bias",
       "%packed : __torch__.torch.classes.xnnpack.LinearOpContext = "
       "prepacked::linear_clamp_prepack",
       "prepacked::linear_clamp_run"},
  };
  for (const auto& op : kPackedOps) {
    for (const auto& activation : kActivations) {
      const bool clamp_from_graph = activation.min_max[0] == '\0';
      const std::string inputs = std::string("%input, ") + op.parameters +
                                 (clamp_from_graph ? ", %output_min, %output_max" : "") + ", %none";
      const std::string pattern = "graph(" + inputs + "):\n      " + op.prepack + "(" +
                                  op.parameters + ", %none, %none)\n      %result = " + op.run +
                                  "(%input, %packed)\n      %out = " + activation.call +
                                  "\n      return (%out)";
      const std::string replacement = "graph(" + inputs + "):\n      " + activation.min_max +
                                      "\n      " + op.prepack + "(" + op.parameters +
                                      ", %output_min, %output_max)\n      %out = " + op.run +
                                      "(%input, %packed)\n      return (%out)";
      torch::jit::SubgraphRewriter rewriter;
      rewriter.RegisterRewritePattern(pattern, replacement);
      rewriter.runOnGraph(graph);
    }
  }
}

int count_nodes(const torch::jit::Graph& graph, std::initializer_list<const char*> kinds) {
  int count = 0;
  for (const auto* node : graph.nodes()) {
    const std::string kind = node->kind().toQualString();
    for (const char* wanted : kinds) count += kind == wanted ? 1 : 0;
  }
  return count;
}

int count_activations(const torch::jit::Graph& graph) {
  return count_nodes(graph, {"aten::relu", "aten::relu_", "aten::hardtanh", "aten::hardtanh_"});
}

class XnnpackModel final : public GraphExecutorModel {
 public:
  XnnpackModel(std::shared_ptr<torch::jit::Graph> graph, int packed_ops, int fused_activations)
      : GraphExecutorModel(std::move(graph)),
        packed_ops_(packed_ops),
        fused_activations_(fused_activations) {}

  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    const int team = omp_get_max_threads();
    omp_set_num_threads(1);
    c10::IValue output;
    try {
      output = GraphExecutorModel::run(inputs);
    } catch (...) {
      omp_set_num_threads(team);
      throw;
    }
    omp_set_num_threads(team);
    return output;
  }

  // XNNPACK's pool is caffe2's pthreadpool, not OpenMP's (see
  // CompiledModel::settling_calls).
  int64_t settling_calls() const override { return 1; }

  std::map<std::string, double> counters() const override {
    return {{"xnnpack_ops", static_cast<double>(packed_ops_)},
            {"xnnpack_fused_activations", static_cast<double>(fused_activations_)}};
  }

 private:
  int packed_ops_;
  int fused_activations_;
};

class XnnpackBackend final : public Backend {
 public:
  bool traces_model() const override { return true; }
  std::string description() const override {
    return "frozen graph with conv2d/linear prepacked for XNNPACK (NHWC), relu/hardtanh fused";
  }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    if (options.precision == Precision::kBFloat16) {
      throw UnsupportedModel("xnnpack: float32 only (XNNPACK's LibTorch ops take no bfloat16)");
    }
    auto graph = inference_graph(model, options);
    freeze_graph(graph);
    torch::jit::transformConv1dToConv2d(graph);
    try {
      torch::jit::insertPrePackedOps(graph);
    } catch (const c10::Error& error) {
      // LibTorch built without XNNPACK (PyPI's 2.x wheels) asserts so;
      // anything else is a failure of this model.
      if (std::string(error.what()).find("XNNPACK is not enabled") == std::string::npos) throw;
      throw UnsupportedBuild(
          "xnnpack: this LibTorch was built without XNNPACK, as PyPI's wheels are; the Debian "
          "build (make build) has it");
    }
    const int activations = count_activations(*graph);
    fuse_activations_into_packed_ops(graph);
    const int fused = activations - count_activations(*graph);
    torch::jit::ConstantPropagation(graph, /*ignore_custom_classes=*/false);
    // With no conv2d or linear layer this is the frozen graph on ATen's
    // kernels; the xnnpack_ops counter says so.
    const int packed =
        count_nodes(*graph, {"prepacked::conv2d_clamp_run", "prepacked::linear_clamp_run"});
    return std::make_unique<XnnpackModel>(graph, packed, fused);
  }
};

const BuiltinBackend kXnnpack("xnnpack", [] { return std::make_unique<XnnpackBackend>(); });

}  // namespace

}  // namespace tracebench
