#include "zoo/zoo.h"

#include <algorithm>

#include "zoo/alexnet.h"
#include "zoo/bert.h"
#include "zoo/mnasnet.h"
#include "zoo/mobilenet_v2.h"
#include "zoo/resnet.h"
#include "zoo/small_models.h"
#include "zoo/squeezenet.h"
#include "zoo/vgg.h"
#include "zoo/vit.h"

namespace tracebench {

namespace {

struct ZooTableRow {
  ZooEntry (*make_entry)();
  int64_t default_batch_size;
};

// Every built-in model and its default batch size, in one place. The defaults
// are TorchBench's eval batch sizes (DEFAULT_EVAL_BSIZE / eval_bs in
// torchbenchmark/models/<name>/__init__.py) as read from the copies we could
// consult; TorchBench has changed some over time, so treat those marked
// "older copy" as the least certain. Use --batch-size 1 for quick runs.
const ZooTableRow kZooTable[] = {
    {make_linear_model_entry, 2},   // the seed's example: what its inputs imply
    {make_small_convnet_entry, 8},  // ours (not in TorchBench): small and quick
    {make_resnet18_entry, 16},      // unverified: kept from the foundation commit
    {make_resnet50_entry, 32},
    {make_resnext50_32x4d_entry, 8},
    {make_alexnet_entry, 128},
    {make_vgg16_entry, 4},
    {make_mobilenet_v2_entry, 16},
    {make_mnasnet1_0_entry, 32},  // older copy (eval_bs=32)
    {make_squeezenet1_1_entry, 16},
    {make_bert_pytorch_entry, 16},
    {make_timm_vision_transformer_entry, 32},  // older copy (eval_bs=32)
};

}  // namespace

const std::vector<ZooEntry>& zoo_models() {
  static const std::vector<ZooEntry> models = [] {
    std::vector<ZooEntry> all;
    for (const auto& row : kZooTable) {
      all.push_back(row.make_entry());
      all.back().default_batch_size = row.default_batch_size;
    }
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
