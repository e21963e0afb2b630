#pragma once
// torchvision's VGG family (vgg.py in torchvision 0.14.1): features from a
// configuration list, a 7x7 adaptive average pool and a dropout classifier,
// with torchvision's parameter names and initialisation.

#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "zoo/zoo_entry.h"

namespace tracebench {

/// A layer list as in torchvision's `cfgs`: channel counts, kVggMaxPool for "M".
using VggConfig = std::vector<int64_t>;
inline constexpr int64_t kVggMaxPool = 0;

/// torchvision's configurations "A" (VGG-11), "B" (13), "D" (16) and "E" (19).
const VggConfig& vgg_config(char name);

struct VggOptions {
  explicit VggOptions(VggConfig config) : config_(std::move(config)) {}
  TORCH_ARG(VggConfig, config);
  TORCH_ARG(bool, batch_norm) = false;
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(double, dropout) = 0.5;
};

struct VggImpl : torch::nn::Module {
  explicit VggImpl(const VggOptions& options);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Sequential features{nullptr};
  torch::nn::AdaptiveAvgPool2d avgpool{nullptr};
  torch::nn::Sequential classifier{nullptr};
};
TORCH_MODULE(Vgg);

ZooEntry make_vgg16_entry();

}  // namespace tracebench
