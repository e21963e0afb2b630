#pragma once
// timm's VisionTransformer as TorchBench's timm_vision_transformer builds it
// (vit_small_patch16_224): timm's parameter names (patch_embed.proj, cls_token,
// pos_embed, blocks.N.norm1/attn.qkv/attn.proj/norm2/mlp.fc1/mlp.fc2, norm, head).

#include <torch/torch.h>

#include <cstdint>

#include "zoo/zoo_entry.h"

namespace tracebench {

struct VitOptions {
  TORCH_ARG(int64_t, image_size) = 224;
  TORCH_ARG(int64_t, patch_size) = 16;
  TORCH_ARG(int64_t, in_chans) = 3;
  TORCH_ARG(int64_t, num_classes) = 1000;
  TORCH_ARG(int64_t, embed_dim) = 384;
  TORCH_ARG(int64_t, depth) = 12;
  TORCH_ARG(int64_t, num_heads) = 6;
  TORCH_ARG(double, mlp_ratio) = 4.0;
  TORCH_ARG(bool, qkv_bias) = true;
  TORCH_ARG(double, norm_eps) = 1e-6;
};

/// Multi-head self-attention with one fused qkv projection.
struct VitAttentionImpl : torch::nn::Module {
  VitAttentionImpl(int64_t dim, int64_t num_heads, bool qkv_bias);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Linear qkv{nullptr}, proj{nullptr};
  int64_t num_heads, head_dim;
  double scale;
};
TORCH_MODULE(VitAttention);

struct VitMlpImpl : torch::nn::Module {
  VitMlpImpl(int64_t dim, int64_t hidden);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};
TORCH_MODULE(VitMlp);

/// Pre-norm block: x + attn(norm1(x)), then x + mlp(norm2(x)).
struct VitBlockImpl : torch::nn::Module {
  explicit VitBlockImpl(const VitOptions& options);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::LayerNorm norm1{nullptr}, norm2{nullptr};
  VitAttention attn{nullptr};
  VitMlp mlp{nullptr};
};
TORCH_MODULE(VitBlock);

struct VisionTransformerImpl : torch::nn::Module {
  explicit VisionTransformerImpl(const VitOptions& options = {});
  torch::Tensor forward(torch::Tensor x);

  std::shared_ptr<torch::nn::Module> patch_embed;  // holds `proj`
  torch::nn::Conv2d proj{nullptr};
  torch::Tensor cls_token, pos_embed;
  torch::nn::ModuleList blocks{nullptr};
  torch::nn::LayerNorm norm{nullptr};
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(VisionTransformer);

/// In-place truncated normal on [lower, upper] (absolute bounds, as timm's
/// trunc_normal_), by inverse-CDF sampling.
void trunc_normal_(torch::Tensor tensor, double mean, double std, double lower, double upper);

ZooEntry make_timm_vision_transformer_entry();

}  // namespace tracebench
