#include "sources/size_arithmetic.h"

#include <torch/csrc/jit/ir/constants.h>
#include <torch/csrc/jit/passes/dead_code_elimination.h>

#include <vector>

namespace tracebench {

namespace {

using torch::jit::Graph;
using torch::jit::Node;
using torch::jit::Value;

// The int op that computes on ints what `kind` computes on 0-dim tensors.
c10::Symbol int_op_of(c10::Symbol kind) {
  if (kind == c10::aten::mul) return c10::aten::mul;
  if (kind == c10::aten::add) return c10::aten::add;
  if (kind == c10::aten::sub) return c10::aten::sub;
  if (kind == c10::aten::floor_divide) return c10::aten::floordiv;
  return c10::Symbol();
}

// An add's or sub's alpha, which must be 1 for the int op to be the same.
bool alpha_is_one(const Node* node) {
  if (node->inputs().size() < 3) return true;
  const auto alpha = torch::jit::toIValue(node->input(2));
  return alpha && alpha->isInt() && alpha->toInt() == 1;
}

// `value` as an int Value, inserted at the graph's insertion point: `value`
// is an int already, an integer constant (a 0-dim tensor or a number), a size
// made a tensor, or arithmetic over those; nullptr for anything else.
Value* as_int(Graph& graph, Value* value) {
  if (value->type()->kind() == c10::TypeKind::IntType) return value;
  Node* node = value->node();
  if (node->kind() == c10::prim::NumToTensor) return as_int(graph, node->input());
  if (node->kind() == c10::prim::Constant) {
    const auto constant = torch::jit::toIValue(value);
    if (!constant || !constant->isTensor()) return nullptr;
    const at::Tensor& tensor = constant->toTensor();
    if (tensor.dim() != 0 || !c10::isIntegralType(tensor.scalar_type(), /*includeBool=*/false)) {
      return nullptr;
    }
    return graph.insertConstant(tensor.item<int64_t>());
  }
  const c10::Symbol op = int_op_of(node->kind());
  if (!op.is_aten() || !alpha_is_one(node)) return nullptr;
  Value* lhs = as_int(graph, node->input(0));
  Value* rhs = lhs ? as_int(graph, node->input(1)) : nullptr;
  return rhs ? graph.insert(op, {lhs, rhs}) : nullptr;
}

}  // namespace

int fold_size_arithmetic(Graph& graph) {
  std::vector<Node*> to_int;
  for (Node* node : graph.nodes()) {
    if (node->kind() == c10::aten::Int) to_int.push_back(node);
  }
  int folded = 0;
  for (Node* node : to_int) {
    torch::jit::WithInsertPoint here(node);
    if (Value* value = as_int(graph, node->input())) {
      node->output()->replaceAllUsesWith(value);
      ++folded;
    }
  }
  torch::jit::EliminateDeadCode(graph.block());
  return folded;
}

}  // namespace tracebench
