#pragma once
// torchvision's MNASNet (mnasnet.py in torchvision 0.14.1, the B1 variant at
// depth multiplier alpha): same module tree (layers.N, layers.8-13.M.layers.K,
// classifier.1), batch-norm momentum and initialisation.

#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "zoo/zoo_entry.h"

namespace tracebench {

struct MnasNetOptions {
  explicit MnasNetOptions(double alpha) : alpha_(alpha) {}
  TORCH_ARG(double, alpha);
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(double, dropout) = 0.2;
};

/// Pointwise expand, depthwise kxk, linear pointwise, with the identity when
/// the shape is unchanged (torchvision's mnasnet._InvertedResidual).
struct MnasInvertedResidualImpl : torch::nn::Module {
  MnasInvertedResidualImpl(int64_t in_ch, int64_t out_ch, int64_t kernel_size, int64_t stride,
                           int64_t expansion_factor, double bn_momentum);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Sequential layers{nullptr};
  bool apply_residual = false;
};
TORCH_MODULE(MnasInvertedResidual);

struct MnasNetImpl : torch::nn::Module {
  explicit MnasNetImpl(const MnasNetOptions& options);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Sequential layers{nullptr};
  torch::nn::Sequential classifier{nullptr};
};
TORCH_MODULE(MnasNet);

/// torchvision's _get_depths: the eight stage widths scaled by alpha.
std::vector<int64_t> mnasnet_depths(double alpha);

ZooEntry make_mnasnet1_0_entry();

}  // namespace tracebench
