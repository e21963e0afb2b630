#include "backends/graph/graph_module.h"

#include <torch/csrc/jit/ir/ir.h>

#include <string>
#include <vector>

namespace tracebench {

torch::jit::Module module_of_graph(const std::shared_ptr<torch::jit::Graph>& source,
                                   TensorConstants tensors) {
  torch::jit::Module module(c10::QualifiedName("__torch__.tracebench.OptimizedModel"));
  auto graph = source->copy();
  auto* self = graph->insertInput(0, "self");
  self->setType(module.type());
  std::vector<torch::jit::Node*> objects;
  std::vector<torch::jit::Node*> buffers;
  for (auto* node : graph->nodes()) {
    if (node->kind() != c10::prim::Constant) continue;
    if (node->output()->type()->cast<c10::ClassType>()) objects.push_back(node);
    if (tensors == TensorConstants::kBuffers && node->output()->type()->cast<c10::TensorType>()) {
      buffers.push_back(node);
    }
  }
  const auto replace_by_attribute = [&](torch::jit::Node* node, const std::string& name) {
    torch::jit::WithInsertPoint here(node);
    node->output()->replaceAllUsesWith(graph->insertGetAttr(self, name));
    node->destroy();
  };
  for (size_t i = 0; i < objects.size(); ++i) {
    const std::string name = "packed_" + std::to_string(i);
    module.register_attribute(name, objects[i]->output()->type(),
                              *torch::jit::toIValue(objects[i]->output()));
    replace_by_attribute(objects[i], name);
  }
  for (size_t i = 0; i < buffers.size(); ++i) {
    const std::string name = "constant_" + std::to_string(i);
    module.register_buffer(name, torch::jit::toIValue(buffers[i]->output())->toTensor());
    replace_by_attribute(buffers[i], name);
  }
  auto* forward = module._ivalue()->compilation_unit()->create_function(
      c10::QualifiedName(*module.type()->name(), "forward"), graph);
  module.type()->addMethod(forward);
  return module;
}

}  // namespace tracebench
