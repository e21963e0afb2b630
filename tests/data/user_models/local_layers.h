// Layers shared by the models in this folder; local_header_model.cpp includes
// it as "local_layers.h", so it is found next to the including file.
#pragma once

#include <torch/torch.h>

constexpr int64_t kHiddenWidth = 64;

// Pre-norm residual MLP: x + fc2(gelu(fc1(norm(x)))).
struct MlpBlockImpl : torch::nn::Module {
  explicit MlpBlockImpl(int64_t width, int64_t hidden = kHiddenWidth) {
    norm = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({width})));
    fc1 = register_module("fc1", torch::nn::Linear(width, hidden));
    fc2 = register_module("fc2", torch::nn::Linear(hidden, width));
  }

  torch::Tensor forward(torch::Tensor x) {
    return x + fc2(torch::gelu(fc1(norm(x))));
  }

  torch::nn::LayerNorm norm{nullptr};
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(MlpBlock);
