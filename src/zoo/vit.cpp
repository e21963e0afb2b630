#include "zoo/vit.h"

#include <cmath>

namespace tracebench {

namespace nn = torch::nn;

void trunc_normal_(torch::Tensor tensor, double mean, double std, double lower, double upper) {
  torch::NoGradGuard no_grad;
  auto normal_cdf = [](double x) { return 0.5 * (1.0 + std::erf(x / std::sqrt(2.0))); };
  const double lo = normal_cdf((lower - mean) / std), hi = normal_cdf((upper - mean) / std);
  // Uniform on the CDF interval, mapped back through the inverse normal CDF.
  tensor.uniform_(2 * lo - 1, 2 * hi - 1).erfinv_().mul_(std * std::sqrt(2.0)).add_(mean);
  tensor.clamp_(lower, upper);
}

VitAttentionImpl::VitAttentionImpl(int64_t dim, int64_t num_heads, bool qkv_bias)
    : num_heads(num_heads), head_dim(num_heads > 0 ? dim / num_heads : 0) {
  TORCH_CHECK(num_heads > 0 && dim % num_heads == 0, "ViT embed_dim (", dim,
              ") must be a multiple of num_heads (", num_heads, ")");
  scale = 1.0 / std::sqrt(static_cast<double>(head_dim));
  qkv = register_module("qkv", nn::Linear(nn::LinearOptions(dim, 3 * dim).bias(qkv_bias)));
  proj = register_module("proj", nn::Linear(dim, dim));
}

// Sizes read in C++ become constants of a trace, so the heads are split and
// merged by the dimensions they come from, never by the batch's size: a
// trace then runs at any batch (--shape-set batch=...).
torch::Tensor VitAttentionImpl::forward(torch::Tensor x) {
  auto qkv_heads = qkv(x).unflatten(-1, {3, num_heads, head_dim}).permute({2, 0, 3, 1, 4});
  auto q = qkv_heads[0] * scale, k = qkv_heads[1], v = qkv_heads[2];
  auto attention = torch::softmax(torch::matmul(q, k.transpose(-2, -1)), -1);
  return proj(torch::matmul(attention, v).transpose(1, 2).flatten(2));
}

VitMlpImpl::VitMlpImpl(int64_t dim, int64_t hidden) {
  fc1 = register_module("fc1", nn::Linear(dim, hidden));
  fc2 = register_module("fc2", nn::Linear(hidden, dim));
}

torch::Tensor VitMlpImpl::forward(torch::Tensor x) { return fc2(torch::gelu(fc1(x))); }

VitBlockImpl::VitBlockImpl(const VitOptions& o) {
  auto layer_norm = [&] {
    return nn::LayerNorm(nn::LayerNormOptions({o.embed_dim()}).eps(o.norm_eps()));
  };
  norm1 = register_module("norm1", layer_norm());
  attn = register_module("attn", VitAttention(o.embed_dim(), o.num_heads(), o.qkv_bias()));
  norm2 = register_module("norm2", layer_norm());
  mlp = register_module("mlp",
                        VitMlp(o.embed_dim(), static_cast<int64_t>(o.embed_dim() * o.mlp_ratio())));
}

torch::Tensor VitBlockImpl::forward(torch::Tensor x) {
  x = x + attn(norm1(x));
  return x + mlp(norm2(x));
}

VisionTransformerImpl::VisionTransformerImpl(const VitOptions& o) {
  TORCH_CHECK(o.patch_size() > 0 && o.image_size() % o.patch_size() == 0,
              "ViT image_size must be a multiple of patch_size");
  TORCH_CHECK(o.depth() > 0 && o.embed_dim() > 0 && o.num_classes() > 0 && o.mlp_ratio() > 0,
              "ViT needs positive depth, embed_dim, num_classes and mlp_ratio");
  const int64_t grid = o.image_size() / o.patch_size();
  patch_embed = register_module("patch_embed", std::make_shared<nn::Module>("PatchEmbed"));
  proj = patch_embed->register_module(
      "proj",
      nn::Conv2d(
          nn::Conv2dOptions(o.in_chans(), o.embed_dim(), o.patch_size()).stride(o.patch_size())));
  cls_token = register_parameter("cls_token", torch::zeros({1, 1, o.embed_dim()}));
  pos_embed = register_parameter("pos_embed", torch::zeros({1, grid * grid + 1, o.embed_dim()}));
  blocks = register_module("blocks", nn::ModuleList());
  for (int64_t i = 0; i < o.depth(); ++i) blocks->push_back(VitBlock(o));
  norm = register_module("norm",
                         nn::LayerNorm(nn::LayerNormOptions({o.embed_dim()}).eps(o.norm_eps())));
  head = register_module("head", nn::Linear(o.embed_dim(), o.num_classes()));

  // timm's default init: pos_embed ~ TN(0, .02), cls_token ~ N(0, 1e-6),
  // every Linear TN(0, .02) with zero bias; conv and LayerNorm keep PyTorch's.
  torch::NoGradGuard no_grad;
  trunc_normal_(pos_embed, 0.0, 0.02, -2.0, 2.0);
  nn::init::normal_(cls_token, 0.0, 1e-6);
  for (auto& module : modules(/*include_self=*/false)) {
    if (auto* linear = module->as<nn::Linear>()) {
      trunc_normal_(linear->weight, 0.0, 0.02, -2.0, 2.0);
      if (linear->bias.defined()) nn::init::zeros_(linear->bias);
    }
  }
}

torch::Tensor VisionTransformerImpl::forward(torch::Tensor x) {
  x = proj(x).flatten(2).transpose(1, 2);  // B x patches x dim
  // The class token for each image, by the batch of x (expand_as), as above.
  x = torch::cat({cls_token.expand_as(x.narrow(1, 0, 1)), x}, 1) + pos_embed;
  for (const auto& block : *blocks) x = block->as<VitBlock>()->forward(x);
  x = norm(x);
  using torch::indexing::Slice;
  return head(x.index({Slice(), 0}));  // the class token
}

ZooEntry make_timm_vision_transformer_entry() {
  return make_image_classifier_entry(
      "timm_vision_transformer",
      "timm vit_small_patch16_224 (patch 16, dim 384, depth 12, 6 heads), 3x224x224",
      [] { return std::make_shared<VisionTransformerImpl>(); });
}

}  // namespace tracebench
