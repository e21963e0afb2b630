// A model built from a block defined in a header next to this file:
//   tracebench --only=path:tests/data/user_models/local_header_model.cpp,class:LocalHeaderModel
#include <tracebench/model.h>

#include "local_layers.h"

struct LocalHeaderModel : torch::nn::Module {
  LocalHeaderModel() {
    embed = register_module("embed", torch::nn::Linear(16, kHiddenWidth));
    block1 = register_module("block1", MlpBlock(kHiddenWidth, 2 * kHiddenWidth));
    block2 = register_module("block2", MlpBlock(kHiddenWidth));
    head = register_module("head", torch::nn::Linear(kHiddenWidth, 4));
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(embed(x));
    x = block2(block1(x));
    return head(x);
  }

  std::vector<torch::Tensor> get_example_inputs() { return {torch::randn({8, 16})}; }

  torch::nn::Linear embed{nullptr}, head{nullptr};
  MlpBlock block1{nullptr}, block2{nullptr};
};
TRACEBENCH_REGISTER_MODEL(LocalHeaderModel)
