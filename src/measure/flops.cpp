#include "measure/flops.h"

#include <torch/csrc/jit/ir/constants.h>

#include "tracebench/tracing.h"

namespace tracebench {

namespace {

using torch::jit::Node;
using torch::jit::Value;

// Sizes recorded by the tracer (complete tensor types), or those of a constant.
std::vector<int64_t> sizes_of(const Value* value) {
  if (auto type = value->type()->cast<c10::TensorType>()) {
    if (auto sizes = type->sizes().concrete_sizes()) return *sizes;
  }
  if (auto constant = torch::jit::toIValue(value); constant && constant->isTensor()) {
    return constant->toTensor().sizes().vec();
  }
  TORCH_CHECK(false, "FLOP counter: no shape recorded for an input of ",
              value->node()->kind().toQualString());
}

int64_t numel(const std::vector<int64_t>& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

int64_t convolution_macs(const Node* node) {
  const auto weight = sizes_of(node->input(1));  // C_out x C_in/groups x k...
  int64_t per_output = 1;
  for (size_t i = 1; i < weight.size(); ++i) per_output *= weight[i];
  return numel(sizes_of(node->output())) * per_output;
}

// numel(output) x K, with K the size reduced over: the last dimension of the
// first operand (its only one when it is a vector).
int64_t product_macs(const Node* node, size_t first_operand) {
  const auto a = sizes_of(node->input(first_operand));
  const int64_t k = a.empty() ? 1 : a.back();
  return numel(sizes_of(node->output())) * k;
}

}  // namespace

FlopCount count_flops(Model& model, const std::vector<c10::IValue>& inputs) {
  torch::NoGradGuard no_grad;
  auto graph = trace_model_graph(model, inputs);
  FlopCount count;
  int64_t macs = 0;
  // Traced graphs are flat (no blocks) for these models; walk nested blocks anyway.
  std::vector<torch::jit::Block*> pending = {graph->block()};
  while (!pending.empty()) {
    auto* block = pending.back();
    pending.pop_back();
    for (Node* node : block->nodes()) {
      for (auto* sub : node->blocks()) pending.push_back(sub);
      const std::string kind = node->kind().toQualString();
      if (kind == "aten::_convolution" || kind == "aten::conv2d" || kind == "aten::conv1d" ||
          kind == "aten::conv3d") {
        macs += convolution_macs(node);
        ++count.conv_ops;
      } else if (kind == "aten::linear") {
        macs += product_macs(node, 0);
        ++count.linear_ops;
      } else if (kind == "aten::addmm") {
        macs += product_macs(node, 1);  // addmm(bias, mat1, mat2)
        ++count.linear_ops;
      } else if (kind == "aten::matmul" || kind == "aten::mm" || kind == "aten::bmm") {
        macs += product_macs(node, 0);
        ++count.matmul_ops;
      }
    }
  }
  count.flops = 2 * macs;
  return count;
}

}  // namespace tracebench
