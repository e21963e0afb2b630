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

}  // namespace tracebench
