// onednn_linear: ofi, with every linear layer that ofi leaves to BLAS run by
// oneDNN instead. ofi's oneDNN conversion starts only at a convolution, so in
// a transformer (or any conv-less graph, or past a conv group) each linear is
// a matmul on Debian's OpenBLAS. Here each such aten::linear with a constant
// 2-d weight becomes
//   to_dense(mkldnn_linear(to_mkldnn(x), W as a oneDNN-layout constant, b)).
// Same float32 arithmetic, reordered. On this project's machine (2 threads)
// oneDNN takes 0.75 ms for a 128x768x768 linear where OpenBLAS takes 4.7, but
// for few rows it loses (see kMinRows), and for tiny layers the two layout
// conversions (~25 us) cost more than the layer: so it is a backend of its
// own, which `auto` weighs, not part of ofi (docs/backends.md).

#include "backends/graph/frozen_graph.h"
#include "backends/registry.h"
#include "tracebench/tracing.h"

namespace tracebench {

namespace {

using torch::jit::Node;

// Rows (the input's elements over its last dimension) below which a linear
// stays on BLAS: LibTorch 1.13 has no linear-weight prepack for oneDNN, so
// mkldnn_linear reorders the plain-layout weight on every call. With few rows
// that costs more than it saves: alexnet's 9216x4096 layer at one row took
// 67 ms in oneDNN and 30 in OpenBLAS; at 8 rows of 768x768, 0.28 and 0.78.
constexpr int64_t kMinRows = 8;

// The traced input's rows, or 0 where the trace did not record its shape.
int64_t rows_of(const torch::jit::Value* input) {
  const auto type = input->type()->cast<c10::TensorType>();
  const auto sizes = type ? type->sizes().concrete_sizes() : c10::nullopt;
  if (!sizes || sizes->empty()) return 0;
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < sizes->size(); ++i) rows *= (*sizes)[i];
  return rows;
}

// Returns whether it rewrote `linear`.
bool run_linear_in_onednn(Node* linear, const at::Tensor& weight) {
  if (rows_of(linear->input(0)) < kMinRows) return false;
  auto& graph = *linear->owningGraph();
  torch::jit::WithInsertPoint before(linear);
  // What ofi's own conversion makes of a weight: a node holding the
  // oneDNN-layout tensor, which the graph executor's constant passes leave alone.
  auto* onednn_weight = graph.create(c10::prim::ConstantMKLDNNTensor, 1);
  const auto onednn_tensor = weight.to_mkldnn();
  onednn_weight->t_(c10::attr::value, onednn_tensor);
  onednn_weight->output()->setType(c10::TensorType::create(onednn_tensor));
  graph.insertNode(onednn_weight);
  auto* onednn_input = graph.insert(at::aten::to_mkldnn, {linear->input(0)});
  auto* onednn_output = graph.insert(c10::Symbol::fromQualString("aten::mkldnn_linear"),
                                     {onednn_input, onednn_weight->output(), linear->input(2)});
  auto* dense = graph.insert(at::aten::to_dense, {onednn_output});
  dense->setType(linear->output()->type());
  linear->output()->replaceAllUsesWith(dense);
  linear->destroy();
  return true;
}

class OnednnLinearBackend final : public Backend {
 public:
  bool traces_model() const override { return true; }
  std::string description() const override {
    return "ofi with the linear layers it leaves to BLAS run by oneDNN (transformers)";
  }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    auto graph = inference_graph(model, options);
    freeze_graph(graph);
    int linears = 0;
    const auto saveable =
        optimize_for_inference_keeping_saveable(graph, [&linears](torch::jit::Graph& g) {
          linears = rewrite_constant_linears(g, run_linear_in_onednn);
        });
    auto compiled = std::make_unique<GraphExecutorModel>(graph);
    compiled->set_saveable_graph(saveable);
    // With no linear left to BLAS this is ofi; the counter says so.
    compiled->set_counter(kOnednnLinearsCounter, linears);
    return compiled;
  }
};

const BuiltinBackend kOnednnLinear("onednn_linear",
                                   [] { return std::make_unique<OnednnLinearBackend>(); });

}  // namespace

}  // namespace tracebench
