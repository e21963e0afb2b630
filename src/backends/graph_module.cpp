#include "backends/graph_module.h"

#include <torch/csrc/jit/ir/ir.h>

#include <string>
#include <vector>

namespace tracebench {

torch::jit::Module module_of_graph(const std::shared_ptr<torch::jit::Graph>& source) {
  torch::jit::Module module(c10::QualifiedName("__torch__.tracebench.OptimizedModel"));
  auto graph = source->copy();
  auto* self = graph->insertInput(0, "self");
  self->setType(module.type());
  std::vector<torch::jit::Node*> objects;
  for (auto* node : graph->nodes()) {
    if (node->kind() == c10::prim::Constant && node->output()->type()->cast<c10::ClassType>()) {
      objects.push_back(node);
    }
  }
  for (size_t i = 0; i < objects.size(); ++i) {
    auto* node = objects[i];
    const std::string name = "packed_" + std::to_string(i);
    module.register_attribute(name, node->output()->type(), *torch::jit::toIValue(node->output()));
    torch::jit::WithInsertPoint here(node);
    node->output()->replaceAllUsesWith(graph->insertGetAttr(self, name));
    node->destroy();
  }
  auto* forward = module._ivalue()->compilation_unit()->create_function(
      c10::QualifiedName(*module.type()->name(), "forward"), graph);
  module.type()->addMethod(forward);
  return module;
}

}  // namespace tracebench
