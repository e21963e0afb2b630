#pragma once
// torchvision's AlexNet (alexnet.py in torchvision 0.14.1): same module tree
// and parameter names (features.N, classifier.N), so its state dict loads.

#include <torch/torch.h>

#include <cstdint>

#include "zoo/zoo_entry.h"

namespace tracebench {

struct AlexNetOptions {
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(double, dropout) = 0.5;
};

/// Five convolutions with max pooling, a 6x6 adaptive average pool, then
/// dropout-linear-relu twice and the class layer. PyTorch's default init
/// (torchvision's AlexNet does not re-initialise).
struct AlexNetImpl : torch::nn::Module {
  explicit AlexNetImpl(const AlexNetOptions& options = {});
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Sequential features{nullptr};
  torch::nn::AdaptiveAvgPool2d avgpool{nullptr};
  torch::nn::Sequential classifier{nullptr};
};
TORCH_MODULE(AlexNet);

ZooEntry make_alexnet_entry();

}  // namespace tracebench
