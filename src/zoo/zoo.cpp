#include "zoo/zoo.h"

#include <algorithm>

#include "zoo/resnet.h"
#include "zoo/small_models.h"

namespace tracebench {

// Default batch sizes follow TorchBench's eval defaults where TorchBench has
// the model (resnet18: 16); the two tiny models use what their inputs imply.
const std::vector<ZooEntry>& zoo_models() {
  static const std::vector<ZooEntry> models = [] {
    std::vector<ZooEntry> all = {
        make_linear_model_entry(),
        make_small_convnet_entry(),
        make_resnet18_entry(),
    };
    std::sort(all.begin(), all.end(),
              [](const ZooEntry& a, const ZooEntry& b) { return a.name < b.name; });
    return all;
  }();
  return models;
}

const ZooEntry* find_zoo_model(const std::string& name) {
  for (const auto& entry : zoo_models()) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

}  // namespace tracebench
