#pragma once
// Small building blocks shared by the zoo's model families.

#include <torch/torch.h>

namespace tracebench {

/// A torch::nn::Sequential with a plain Tensor -> Tensor forward, so that it
/// can sit inside another Sequential (nn::Sequential's own templated forward
/// cannot). Children are still named "0", "1", ... like Python's nn.Sequential.
struct TensorSequentialImpl : torch::nn::SequentialImpl {
  using SequentialImpl::SequentialImpl;
  torch::Tensor forward(torch::Tensor x) { return SequentialImpl::forward(x); }
};
TORCH_MODULE(TensorSequential);

/// ReLU in place, as torchvision's families build it.
torch::nn::ReLU inplace_relu();

/// A convolution without bias that keeps the spatial size at stride 1
/// (padding kernel / 2), as torchvision puts one before each batch norm.
torch::nn::Conv2d conv_before_batch_norm(int64_t in, int64_t out, int64_t kernel,
                                         int64_t stride = 1, int64_t groups = 1);

/// How torchvision initialises a family's Linear layers.
enum class LinearInit {
  kDefault,                // left as constructed (ResNet)
  kNormal,                 // N(0, 0.01), bias 0 (VGG, MobileNetV2)
  kKaimingUniformSigmoid,  // He-uniform, fan_out, sigmoid gain, bias 0 (MNASNet)
};

/// torchvision's initialisation loop over `root`'s submodules: He-normal
/// (fan_out, ReLU gain) convolutions with zero bias, unit batch norm, and
/// Linear layers as `linear` says. Draws from the current torch seed.
void init_like_torchvision(torch::nn::Module& root, LinearInit linear);

}  // namespace tracebench
