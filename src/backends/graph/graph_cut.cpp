#include "backends/graph/graph_cut.h"

#include <unordered_map>
#include <unordered_set>

namespace tracebench {

namespace {

using torch::jit::Block;
using torch::jit::Node;
using torch::jit::Value;

// Every value defined by `node` and inside its blocks.
void collect_defined(Node* node, std::unordered_set<const Value*>& defined) {
  for (Value* output : node->outputs()) defined.insert(output);
  for (Block* block : node->blocks()) {
    for (Value* param : block->inputs()) defined.insert(param);
    for (Node* inner : block->nodes()) collect_defined(inner, defined);
  }
}

// Values `node` (or a node in its blocks) reads that `defined` lacks, in
// first-read order, each once.
void collect_free(Node* node, const std::unordered_set<const Value*>& defined,
                  std::unordered_set<const Value*>& seen, std::vector<Value*>& free) {
  auto read = [&](Value* value) {
    if (defined.count(value) || !seen.insert(value).second) return;
    free.push_back(value);
  };
  for (Value* input : node->inputs()) read(input);
  for (Block* block : node->blocks()) {
    for (Node* inner : block->nodes()) collect_free(inner, defined, seen, free);
    for (Value* output : block->outputs()) read(output);
  }
}

// The top-level node a (possibly nested) node belongs to.
Node* top_level(Node* node, const Block* top) {
  while (node->owningBlock() != top) node = node->owningBlock()->owningNode();
  return node;
}

}  // namespace

GraphPiece cut_piece(const std::vector<Node*>& nodes,
                     const std::function<bool(const Value*)>& leads) {
  TORCH_INTERNAL_ASSERT(!nodes.empty());
  const Block* top = nodes.front()->owningGraph()->block();
  std::unordered_set<const Value*> defined;
  std::unordered_set<const Node*> members(nodes.begin(), nodes.end());
  for (Node* node : nodes) collect_defined(node, defined);
  std::unordered_set<const Value*> seen;
  std::vector<Value*> free;
  for (Node* node : nodes) collect_free(node, defined, seen, free);

  GraphPiece piece;
  piece.graph = std::make_shared<torch::jit::Graph>();
  std::unordered_map<const Value*, Value*> mapped;
  std::stable_partition(free.begin(), free.end(), leads);
  for (Value* value : free) {
    if (value->node()->kind() == c10::prim::Constant) {
      Node* copy = piece.graph->createClone(value->node(), [](Value*) -> Value* {
        TORCH_INTERNAL_ASSERT(false, "a constant has no inputs");
      });
      mapped[value] = piece.graph->insertNode(copy)->output();
      continue;
    }
    Value* input = piece.graph->addInput();
    input->setType(value->type());
    mapped[value] = input;
    piece.inputs.push_back(value);
  }
  for (Node* node : nodes) {
    Node* copy = piece.graph->createClone(node, [&](Value* value) { return mapped.at(value); });
    piece.graph->insertNode(copy);
    for (size_t i = 0; i < node->outputs().size(); ++i) mapped[node->output(i)] = copy->output(i);
  }

  // What something after the nodes reads.
  for (Node* node : nodes) {
    for (Value* output : node->outputs()) {
      for (const auto& use : output->uses()) {
        if (use.user->kind() == c10::prim::Return || !members.count(top_level(use.user, top))) {
          piece.outputs.push_back(output);
          break;
        }
      }
    }
  }
  std::vector<Value*> returned;
  for (Value* output : piece.outputs) returned.push_back(mapped.at(output));
  piece.graph->registerOutput(
      piece.graph->insertNode(piece.graph->createTuple(returned))->output());
  return piece;
}

bool holds_nested_tensors(const c10::TypePtr& type) {
  for (const auto& contained : type->containedTypes()) {
    if (contained->isSubtypeOf(*c10::TensorType::get()) || holds_nested_tensors(contained)) {
      return true;
    }
  }
  return false;
}

}  // namespace tracebench
