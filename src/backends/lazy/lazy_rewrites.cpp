#include "backends/lazy/lazy_rewrites.h"

#include <torch/csrc/jit/ir/constants.h>

#include <cstring>
#include <vector>

namespace tracebench::lazy {

namespace {

// Whether a node after `node` reads `value`.
bool used_after(const torch::jit::Value* value, const torch::jit::Node* node) {
  for (const auto& use : value->uses()) {
    if (use.user != node && node->isBefore(use.user)) return true;
  }
  return false;
}

// Replaces every `from` node by a `to` node over its first `input_count`
// inputs; the two must compute the same thing for those inputs. An in-place
// `from` (writing its first input) is replaced only where nothing reads that
// input afterwards, so the out-of-place `to` is indistinguishable.
void replace_op(torch::jit::Graph& graph, c10::Symbol from, c10::Symbol to, size_t input_count) {
  const bool in_place = from.toUnqualString()[std::strlen(from.toUnqualString()) - 1] == '_';
  for (auto it = graph.nodes().begin(); it != graph.nodes().end();) {
    torch::jit::Node* node = *it;
    ++it;
    if (node->kind() != from || node->inputs().size() < input_count) continue;
    if (in_place && used_after(node->input(0), node)) continue;
    torch::jit::WithInsertPoint guard(node);
    torch::jit::Node* replacement = graph.create(to, node->inputs().slice(0, input_count));
    graph.insertNode(replacement);
    replacement->output()->setType(node->output()->type());
    node->output()->replaceAllUsesWith(replacement->output());
    node->destroy();
  }
}

// relu6(x) and hardtanh(x, low, high), which LTC 1.13 does not lower (they
// fall back to eager), rewritten to ops it lowers:
// - inference: clamp(x, low, high), the same values;
// - training: relu(x - low) - relu(x - high) + low, since LTC cannot
//   differentiate clamp (its backward needs aten::where, not lowered, or an
//   in-place logical_and with no meta kernel) while relu's backward lowers.
//   Exact below `high`; above it x - (x - high) may differ from `high` by
//   rounding (half an ulp of x).
// The bounds become floats (relu6 and hardtanh act on float tensors, and the
// C++ frontend passes ints): lazy_trace_once's oneDNN conversion reads a
// clamp's bounds as doubles.
torch::jit::Value* float_bound(torch::jit::Graph& graph, torch::jit::Value* bound) {
  auto constant = torch::jit::toIValue(bound);
  if (!constant || !constant->isInt()) return bound;
  return graph.insertConstant(static_cast<double>(constant->toInt()));
}

void replace_hardtanh(torch::jit::Graph& graph, c10::Symbol op, Mode mode) {
  for (auto it = graph.nodes().begin(); it != graph.nodes().end();) {
    torch::jit::Node* node = *it;
    ++it;
    if (node->kind() != op) continue;
    torch::jit::WithInsertPoint guard(node);
    const bool hardtanh = node->inputs().size() >= 3;
    torch::jit::Value* x = node->input(0);
    torch::jit::Value* low =
        float_bound(graph, hardtanh ? node->input(1) : graph.insertConstant(0));
    torch::jit::Value* high =
        float_bound(graph, hardtanh ? node->input(2) : graph.insertConstant(6));
    torch::jit::Value* result = nullptr;
    if (mode == Mode::kInference) {
      result = graph.insert(c10::aten::clamp, {x, low, high});
    } else {
      auto relu_minus = [&](torch::jit::Value* bound) {
        return graph.insert(c10::aten::relu, {graph.insert(c10::aten::sub, {x, bound})});
      };
      result = graph.insert(
          c10::aten::add, {graph.insert(c10::aten::sub, {relu_minus(low), relu_minus(high)}), low});
    }
    result->setType(node->output()->type());
    node->output()->replaceAllUsesWith(result);
    node->destroy();
  }
}

// hardsigmoid(x) = clamp(x + 3, 0, 6) / 6 and hardswish(x) = x * that, the
// formulas ATen computes, in ops LTC 1.13 lowers (it has no lowering for
// either). In-place forms only where nothing reads their input afterwards.
// Inference only: LTC cannot differentiate clamp.
void replace_hard_activations(torch::jit::Graph& graph) {
  using namespace c10;
  for (auto it = graph.nodes().begin(); it != graph.nodes().end();) {
    torch::jit::Node* node = *it;
    ++it;
    const Symbol kind = node->kind();
    const bool swish = kind == aten::hardswish || kind == aten::hardswish_;
    const bool sigmoid = kind == aten::hardsigmoid || kind == aten::hardsigmoid_;
    if (!swish && !sigmoid) continue;
    const bool in_place = kind == aten::hardswish_ || kind == aten::hardsigmoid_;
    if (in_place && used_after(node->input(0), node)) continue;
    torch::jit::WithInsertPoint guard(node);
    torch::jit::Value* x = node->input(0);
    torch::jit::Value* gate = graph.insert(
        aten::div, {graph.insert(aten::clamp, {graph.insert(aten::add, {x, 3.0}), 0.0, 6.0}), 6.0});
    torch::jit::Value* result = swish ? graph.insert(aten::mul, {x, gate}) : gate;
    result->setType(node->output()->type());
    node->output()->replaceAllUsesWith(result);
    node->destroy();
  }
}

// Ops the tracer records that LTC's TorchScript backend cannot lower, each
// rewritten to an equivalent op it can (else the forward pass falls back to
// eager and cannot be captured as one computation):
// - aten::_convolution reaches convolution_overrideable and throws;
//   aten::convolution takes its first 9 inputs (dropping cuDNN flags).
// - relu6 / hardtanh (mobilenet_v2's ReLU6): see replace_hardtanh.
// - dropout_ (mnasnet's in-place Dropout) lowers through a fresh empty_like
//   noise buffer filled by bernoulli_, device data a captured computation
//   cannot be fed; out-of-place dropout lowers to native_dropout.
void lower_with_equivalents(torch::jit::Graph& graph, Mode mode) {
  replace_op(graph, c10::aten::_convolution, c10::aten::convolution, 9);
  replace_op(graph, c10::aten::dropout_, c10::aten::dropout, 3);
  for (auto op : {c10::aten::hardtanh, c10::aten::hardtanh_, c10::aten::relu6, c10::aten::relu6_}) {
    replace_hardtanh(graph, op, mode);
  }
  if (mode == Mode::kInference) replace_hard_activations(graph);
}

}  // namespace

void use_lazy_lowerable_ops(torch::jit::Graph& graph, Mode mode) {
  lower_with_equivalents(graph, mode);
}

// LTC 1.13 cannot differentiate aten::convolution without a bias: the shape
// function of convolution_backward returns two shapes where its lowering
// expects three (an internal assert). A zero bias that needs no gradient
// computes the same forward pass and avoids it. new_full, not new_zeros: LTC
// builds new_zeros from fresh device data, which a captured computation
// would have to be fed on every call; new_full expands a scalar constant.
void give_convolutions_a_zero_bias(torch::jit::Graph& graph) {
  for (torch::jit::Node* node : graph.nodes()) {
    if (node->kind() != c10::aten::convolution ||
        node->input(2)->type()->kind() != c10::TypeKind::NoneType) {
      continue;
    }
    torch::jit::WithInsertPoint guard(node);
    torch::jit::Value* weight = node->input(1);
    torch::jit::Value* out_channels = graph.insert(c10::aten::size, {weight, 0});
    torch::jit::Value* shape =
        graph.insertNode(graph.createList(c10::IntType::get(), {out_channels}))->output();
    node->replaceInput(2, graph.insert(c10::aten::new_full, {weight, shape, 0.0}));
  }
}

}  // namespace tracebench::lazy
