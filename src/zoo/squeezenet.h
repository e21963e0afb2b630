#pragma once
// torchvision's SqueezeNet 1.0 and 1.1 (squeezenet.py in torchvision 0.14.1):
// same module tree (features.N.squeeze/expand1x1/expand3x3, classifier.1) and
// initialisation.

#include <torch/torch.h>

#include <cstdint>
#include <string>

#include "zoo/zoo_entry.h"

namespace tracebench {

struct SqueezeNetOptions {
  explicit SqueezeNetOptions(std::string version) : version_(std::move(version)) {}
  TORCH_ARG(std::string, version);  // "1_0" or "1_1"
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(double, dropout) = 0.5;
};

/// Squeeze 1x1, then 1x1 and 3x3 expansions concatenated on channels.
struct FireImpl : torch::nn::Module {
  FireImpl(int64_t inplanes, int64_t squeeze_planes, int64_t expand1x1_planes,
           int64_t expand3x3_planes);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Conv2d squeeze{nullptr}, expand1x1{nullptr}, expand3x3{nullptr};
  torch::nn::ReLU squeeze_activation{nullptr}, expand1x1_activation{nullptr},
      expand3x3_activation{nullptr};
};
TORCH_MODULE(Fire);

struct SqueezeNetImpl : torch::nn::Module {
  explicit SqueezeNetImpl(const SqueezeNetOptions& options);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Sequential features{nullptr};
  torch::nn::Sequential classifier{nullptr};
};
TORCH_MODULE(SqueezeNet);

ZooEntry make_squeezenet1_1_entry();

}  // namespace tracebench
