#include "backends/lazy/flat_inputs.h"

#include "util/tensor_tree.h"

namespace tracebench::lazy {

namespace {

bool is_nested(const c10::IValue& input) {
  return !input.isTensor() && (input.isTuple() || input.isList() || input.isGenericDict()) &&
         holds_tensors_only(input);
}

// The value `like` was, rebuilt in the graph from `leaves` (its tensors, in
// for_each_tensor's order, from `next` on).
torch::jit::Value* rebuild(torch::jit::Graph& graph, const c10::IValue& like,
                           const std::vector<torch::jit::Value*>& leaves, size_t& next) {
  if (like.isTensor()) return leaves.at(next++);
  std::vector<torch::jit::Value*> elements;
  if (like.isTuple()) {
    for (const auto& element : like.toTupleRef().elements()) {
      elements.push_back(rebuild(graph, element, leaves, next));
    }
    return graph.insertNode(graph.createTuple(elements))->output();
  }
  if (like.isList()) {
    for (const auto& element : like.toListRef()) {
      elements.push_back(rebuild(graph, element, leaves, next));
    }
    const auto element_type = like.type()->expectRef<c10::ListType>().getElementType();
    return graph.insertNode(graph.createList(element_type, elements))->output();
  }
  const auto dict = like.toGenericDict();
  std::vector<torch::jit::Value*> keys;
  for (const auto& item : dict) {
    keys.push_back(graph.insertConstant(item.key()));
    elements.push_back(rebuild(graph, item.value(), leaves, next));
  }
  return graph.insertNode(graph.createDict(dict.keyType(), dict.valueType(), keys, elements))
      ->output();
}

}  // namespace

std::vector<c10::IValue> flat_inputs(const std::vector<c10::IValue>& inputs) {
  std::vector<c10::IValue> flat;
  flat.reserve(inputs.size());
  for (const auto& input : inputs) {
    if (!is_nested(input)) {
      flat.push_back(input);
      continue;
    }
    for_each_tensor(input, [&flat](const at::Tensor& tensor) { flat.emplace_back(tensor); });
  }
  return flat;
}

void flatten_graph_inputs(torch::jit::Graph& graph, size_t first,
                          const std::vector<c10::IValue>& example) {
  // From the last input back, so that the positions of those before stay put.
  for (size_t index = example.size(); index-- > 0;) {
    if (!is_nested(example[index])) continue;
    const size_t position = first + index;
    torch::jit::Value* nested = graph.inputs().at(position);
    std::vector<torch::jit::Value*> leaves;
    for_each_tensor(example[index], [&](const at::Tensor& tensor) {
      torch::jit::Value* leaf = graph.insertInput(position + 1 + leaves.size());
      leaf->setType(c10::TensorType::create(tensor));
      leaves.push_back(leaf);
    });
    torch::jit::WithInsertPoint top(graph.nodes().front());
    size_t next = 0;
    torch::jit::Value* rebuilt = rebuild(graph, example[index], leaves, next);
    rebuilt->setType(nested->type());
    nested->replaceAllUsesWith(rebuilt);
    graph.eraseInput(position);
  }
}

}  // namespace tracebench::lazy
