// ofi_bf16: the model traced under CPU autocast to bfloat16, so that the
// graph casts activations to bfloat16 before each convolution, linear and
// matmul (autocast's lower-precision list) and the weights' casts fold into
// bfloat16 constants; then the frozen-graph passes of ofi. ofi's oneDNN
// conversion skips bfloat16 convolutions, which run on ATen's own oneDNN
// kernels instead.
//
// Fast where the CPU has a native bfloat16 dot product (AVX-512 BF16, AMX);
// elsewhere oneDNN emulates it, and the row says so.

#include "backends/autocast_scope.h"
#include "backends/frozen_graph.h"
#include "measure/environment.h"
#include "tracebench/tracing.h"

namespace tracebench {

namespace {

// The model's float32 outputs come out of the graph as bfloat16 where the
// last op was autocast's; the caller gets the dtype the model returns.
c10::IValue bf16_to_float(const c10::IValue& value) {
  if (value.isTensor()) {
    const auto& tensor = value.toTensor();
    return tensor.scalar_type() == at::kBFloat16 ? c10::IValue(tensor.to(at::kFloat)) : value;
  }
  if (value.isTuple()) {
    std::vector<c10::IValue> elements;
    for (const auto& element : value.toTupleRef().elements()) {
      elements.push_back(bf16_to_float(element));
    }
    return c10::ivalue::Tuple::create(std::move(elements));
  }
  if (value.isList()) {
    auto list = value.toList().copy();
    for (size_t i = 0; i < list.size(); ++i) list.set(i, bf16_to_float(list.get(i)));
    return list;
  }
  if (value.isGenericDict()) {
    auto dict = value.toGenericDict().copy();
    for (const auto& entry : value.toGenericDict()) {
      dict.insert_or_assign(entry.key(), bf16_to_float(entry.value()));
    }
    return dict;
  }
  return value;
}

class Bf16GraphModel final : public GraphExecutorModel {
 public:
  using GraphExecutorModel::GraphExecutorModel;
  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    return bf16_to_float(GraphExecutorModel::run(inputs));
  }
  std::vector<BackendWarning> warnings() const override {
    if (has_native_bf16(this_cpu_kernel_flags())) return {};
    return {{"bf16_emulated",
             "this CPU has no native bfloat16 (no avx512_bf16 or amx_bf16 in /proc/cpuinfo): "
             "bfloat16 is emulated, so this row says little about a CPU that has it"}};
  }
};

class OptimizeForInferenceBf16Backend final : public Backend {
 public:
  std::string name() const override { return "ofi_bf16"; }
  bool traces_model() const override { return true; }
  Numerics numerics() const override { return Numerics::kBFloat16; }
  std::string description() const override {
    return "ofi traced under bfloat16 autocast (needs avx512_bf16/AMX to be fast)";
  }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    std::shared_ptr<torch::jit::Graph> graph;
    {
      AutocastScope autocast(Precision::kAmp);
      graph = trace_model_graph(model, options.example_inputs);
    }
    optimize_frozen_graph(graph);
    return std::make_unique<Bf16GraphModel>(graph);
  }
};

}  // namespace

std::unique_ptr<Backend> make_optimize_for_inference_bf16_backend() {
  return std::make_unique<OptimizeForInferenceBf16Backend>();
}

}  // namespace tracebench
