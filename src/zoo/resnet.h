#pragma once
// torchvision's ResNet family (resnet.py in torchvision 0.14.1): same module
// tree and parameter names, so a torchvision state dict loads unchanged.

#include <torch/torch.h>

#include <array>
#include <cstdint>

#include "zoo/zoo_entry.h"

namespace tracebench {

enum class ResNetBlock { kBasic, kBottleneck };

/// Blocks per stage (torchvision's `layers`).
using ResNetStages = std::array<int64_t, 4>;

struct ResNetOptions {
  ResNetOptions(ResNetBlock block, ResNetStages layers) : block_(block), layers_(layers) {}
  TORCH_ARG(ResNetBlock, block);
  TORCH_ARG(ResNetStages, layers);
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(int64_t, groups) = 1;
  TORCH_ARG(int64_t, width_per_group) = 64;
};

/// conv3x3-bn-relu-conv3x3-bn plus the identity (or a 1x1 projection).
struct BasicBlockImpl : torch::nn::Module {
  static constexpr int64_t kExpansion = 1;
  BasicBlockImpl(int64_t inplanes, int64_t planes, int64_t stride, bool downsample, int64_t groups,
                 int64_t base_width);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
  torch::nn::Sequential downsample{nullptr};
};
TORCH_MODULE(BasicBlock);

/// 1x1 reduce, 3x3 (grouped for ResNeXt), 1x1 expand by 4, plus the identity.
struct BottleneckImpl : torch::nn::Module {
  static constexpr int64_t kExpansion = 4;
  BottleneckImpl(int64_t inplanes, int64_t planes, int64_t stride, bool downsample, int64_t groups,
                 int64_t base_width);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr}, conv3{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr}, bn3{nullptr};
  torch::nn::Sequential downsample{nullptr};
};
TORCH_MODULE(Bottleneck);

struct ResNetImpl : torch::nn::Module {
  explicit ResNetImpl(const ResNetOptions& options);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Conv2d conv1{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr};
  torch::nn::MaxPool2d maxpool{nullptr};
  torch::nn::Sequential layer1{nullptr}, layer2{nullptr}, layer3{nullptr}, layer4{nullptr};
  torch::nn::AdaptiveAvgPool2d avgpool{nullptr};
  torch::nn::Linear fc{nullptr};

 private:
  torch::nn::Sequential make_layer(int64_t planes, int64_t blocks, int64_t stride);

  ResNetOptions options_;
  int64_t inplanes_ = 64;
};
TORCH_MODULE(ResNet);

ZooEntry make_resnet18_entry();
ZooEntry make_resnet50_entry();
ZooEntry make_resnext50_32x4d_entry();

}  // namespace tracebench
