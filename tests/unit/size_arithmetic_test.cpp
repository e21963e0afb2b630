// fold_size_arithmetic: the size arithmetic Python's tracer records as tensor
// ops becomes int arithmetic, and the graph computes what it did.

#include "sources/size_arithmetic.h"

#include <gtest/gtest.h>
#include <torch/csrc/jit/ir/irparser.h>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/torch.h>

namespace tracebench {
namespace {

int count_of(const torch::jit::Graph& graph, c10::Symbol kind) {
  int count = 0;
  for (const auto* node : graph.nodes()) count += node->kind() == kind;
  return count;
}

// parse_tensor_constants gives a tensor constant such as `value={0}`
// uninitialized storage (a graph's text holds no tensor data), so after other
// tests reused the memory the graph computed with garbage. Each tensor
// constant becomes a zero, as a trace of `0` records it.
std::shared_ptr<torch::jit::Graph> parse(const std::string& ir) {
  auto graph = std::make_shared<torch::jit::Graph>();
  torch::jit::parseIR(ir, graph.get(), /*parse_tensor_constants=*/true);
  for (auto* node : graph->nodes()) {
    if (node->kind() == c10::prim::Constant && node->hasAttribute(c10::attr::value) &&
        node->kindOf(c10::attr::value) == torch::jit::AttributeKind::t) {
      node->t_(c10::attr::value, at::zeros_like(node->t(c10::attr::value)));
    }
  }
  return graph;
}

at::Tensor run(const std::shared_ptr<torch::jit::Graph>& graph, const at::Tensor& input) {
  torch::jit::GraphExecutor executor(graph->copy(), "forward");
  torch::jit::Stack stack = {input};
  executor.run(stack);
  return stack.back().toTensor();
}

// HuggingFace's BERT takes its positions up to seq_length + past_length
// (a 0-dim constant 0); mobilevit reshapes by h * 2 at a fixed ratio.
TEST(SizeArithmetic, FoldsSizesComputedAsTensorsIntoInts) {
  const auto graph = parse(R"IR(
graph(%x : Tensor):
  %zero : Long(requires_grad=0, device=cpu) = prim::Constant[value={0}]()
  %one : int = prim::Constant[value=1]()
  %two : int = prim::Constant[value=2]()
  %length : int = aten::size(%x, %one)
  %length_tensor : Tensor = prim::NumToTensor(%length)
  %plus : Tensor = aten::add(%length_tensor, %zero, %one)
  %doubled : Tensor = aten::mul(%plus, %two)
  %end : int = aten::Int(%doubled)
  %minus_one : int = prim::Constant[value=-1]()
  %shape : int[] = prim::ListConstruct(%end, %minus_one)
  %out : Tensor = aten::reshape(%x, %shape)
  return (%out))IR");
  const auto x = torch::arange(24).reshape({4, 6});
  const auto before = run(graph, x);
  EXPECT_EQ(fold_size_arithmetic(*graph), 1);
  EXPECT_EQ(count_of(*graph, c10::aten::Int), 0);
  EXPECT_EQ(count_of(*graph, c10::prim::NumToTensor), 0);
  EXPECT_TRUE(run(graph, x).equal(before));
  // The folded graph reads the size at each call: another length, another shape.
  EXPECT_EQ(run(graph, torch::zeros({2, 3})).sizes(), (std::vector<int64_t>{6, 1}));
}

// A size scaled by a float, or a tensor's value, is not a size: left alone.
TEST(SizeArithmetic, LeavesOtherIntsAlone) {
  const auto graph = parse(R"IR(
graph(%x : Tensor, %count : Tensor):
  %one : int = prim::Constant[value=1]()
  %half : float = prim::Constant[value=0.5]()
  %length : int = aten::size(%x, %one)
  %length_tensor : Tensor = prim::NumToTensor(%length)
  %scaled : Tensor = aten::mul(%length_tensor, %half)
  %a : int = aten::Int(%scaled)
  %c : int = aten::Int(%count)
  %both : (int, int) = prim::TupleConstruct(%a, %c)
  return (%both))IR");
  EXPECT_EQ(fold_size_arithmetic(*graph), 0);
  EXPECT_EQ(count_of(*graph, c10::aten::Int), 2);
}

}  // namespace
}  // namespace tracebench
