#pragma once
// torchvision's MobileNetV2 (mobilenetv2.py in torchvision 0.14.1): same
// module tree (features.N.conv.M.K, classifier.1) and initialisation.

#include <torch/torch.h>

#include <array>
#include <cstdint>
#include <vector>

#include "zoo/zoo_entry.h"

namespace tracebench {

/// One row of torchvision's `inverted_residual_setting`: expansion t,
/// output channels c, repeats n, first stride s.
using InvertedResidualSetting = std::array<int64_t, 4>;

struct MobileNetV2Options {
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(double, width_mult) = 1.0;
  TORCH_ARG(int64_t, round_nearest) = 8;
  TORCH_ARG(double, dropout) = 0.2;
  TORCH_ARG(std::vector<InvertedResidualSetting>, inverted_residual_setting) = {
      {1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
      {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
};

/// Expand (1x1, unless t == 1), depthwise 3x3, project (1x1, linear), with
/// the identity added when stride is 1 and the width is unchanged.
struct InvertedResidualImpl : torch::nn::Module {
  InvertedResidualImpl(int64_t inp, int64_t oup, int64_t stride, int64_t expand_ratio);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Sequential conv{nullptr};
  bool use_res_connect = false;
};
TORCH_MODULE(InvertedResidual);

struct MobileNetV2Impl : torch::nn::Module {
  explicit MobileNetV2Impl(const MobileNetV2Options& options = {});
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Sequential features{nullptr};
  torch::nn::Sequential classifier{nullptr};
};
TORCH_MODULE(MobileNetV2);

/// torchvision's _make_divisible: the nearest multiple of `divisor` that is
/// at least `divisor` and not more than 10% below `value`.
int64_t make_divisible(double value, int64_t divisor);

ZooEntry make_mobilenet_v2_entry();

}  // namespace tracebench
