// BERT_pytorch and timm_vision_transformer: no Python reference is installed
// here (TorchBench and timm are not Debian packages), so these check what can
// be derived from the reference configurations: exact parameter counts,
// parameter names and shapes, output shapes, determinism and FLOPs.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "measure/flops.h"
#include "zoo/bert.h"
#include "zoo/vit.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

int64_t parameter_count(torch::nn::Module& module) {
  int64_t count = 0;
  for (const auto& p : module.parameters()) count += p.numel();
  return count;
}

std::vector<int64_t> shape_of(torch::nn::Module& module, const std::string& name) {
  if (auto* p = module.named_parameters().find(name)) return p->sizes().vec();
  if (auto* b = module.named_buffers().find(name)) return b->sizes().vec();
  ADD_FAILURE() << "no parameter or buffer named " << name;
  return {};
}

std::unique_ptr<Model> build(const std::string& name, int64_t batch, uint64_t seed) {
  torch::manual_seed(seed);
  auto model = find_zoo_model(name)->make(batch);
  model->set_training(false);
  for (auto& t : model->tensors()) t.requires_grad_(false);
  return model;
}

// BERT, hidden H = 768, vocabulary V = 20005, 12 layers:
//   embeddings   token V*H = 15,363,840; segment 3*H = 2,304 (position: a buffer)
//   per layer    q, k, v, output linears 4*(H*H + H)       =   2,362,368
//                feed-forward (H*4H + 4H) + (4H*H + H)      =   4,722,432
//                two LayerNorms (a_2, b_2) 2*2*H            =       3,072
//                                                  layer    =   7,087,872
//   total        15,363,840 + 2,304 + 12 * 7,087,872        = 100,420,608
TEST(ZooBert, ParameterCountAndNamesFollowTheReference) {
  BertImpl bert;
  EXPECT_EQ(parameter_count(bert), 100420608);
  EXPECT_EQ(shape_of(bert, "embedding.token.weight"), (std::vector<int64_t>{20005, 768}));
  EXPECT_EQ(shape_of(bert, "embedding.segment.weight"), (std::vector<int64_t>{3, 768}));
  EXPECT_EQ(shape_of(bert, "embedding.position.pe"), (std::vector<int64_t>{1, 512, 768}));
  EXPECT_EQ(shape_of(bert, "transformer_blocks.11.attention.linear_layers.2.weight"),
            (std::vector<int64_t>{768, 768}));
  EXPECT_EQ(shape_of(bert, "transformer_blocks.0.attention.output_linear.bias"),
            (std::vector<int64_t>{768}));
  EXPECT_EQ(shape_of(bert, "transformer_blocks.3.feed_forward.w_1.weight"),
            (std::vector<int64_t>{3072, 768}));
  EXPECT_EQ(shape_of(bert, "transformer_blocks.3.feed_forward.w_2.weight"),
            (std::vector<int64_t>{768, 3072}));
  EXPECT_EQ(shape_of(bert, "transformer_blocks.5.input_sublayer.norm.a_2"),
            (std::vector<int64_t>{768}));
  EXPECT_EQ(shape_of(bert, "transformer_blocks.5.output_sublayer.norm.b_2"),
            (std::vector<int64_t>{768}));
  // Padding rows are zero, as nn.Embedding(padding_idx=0) makes them.
  EXPECT_EQ(bert.embedding->token->weight[0].abs().sum().item<double>(), 0.0);
  EXPECT_EQ(bert.embedding->segment->weight[0].abs().sum().item<double>(), 0.0);
  // pe[pos, 2i] = sin(pos / 10000^(2i/768)), pe[pos, 2i+1] = cos(...).
  const auto pe = bert.embedding->pe[0];
  EXPECT_NEAR(pe[3][0].item<double>(), std::sin(3.0), 1e-6);
  EXPECT_NEAR(pe[3][1].item<double>(), std::cos(3.0), 1e-6);
  EXPECT_NEAR(pe[100][10].item<double>(), std::sin(100.0 * std::pow(10000.0, -10.0 / 768)), 1e-5);
}

TEST(ZooBert, InputsOutputShapeAndDeterminism) {
  auto first = build("BERT_pytorch", 2, 7);
  const auto inputs = first->example_inputs();
  ASSERT_EQ(inputs.size(), 2u);
  const auto tokens = inputs[0].toTensor(), segments = inputs[1].toTensor();
  EXPECT_EQ(tokens.sizes(), (std::vector<int64_t>{2, 128}));
  EXPECT_EQ(tokens.scalar_type(), torch::kInt64);
  EXPECT_EQ(segments.scalar_type(), torch::kInt64);
  EXPECT_TRUE(((tokens > 0) == (segments > 0)).all().item<bool>());  // same padding
  EXPECT_LE(segments.max().item<int64_t>(), 2);

  torch::NoGradGuard no_grad;
  const auto out1 = first->forward(inputs).toTensor();
  EXPECT_EQ(out1.sizes(), (std::vector<int64_t>{2, 128, 768}));
  EXPECT_TRUE(out1.isfinite().all().item<bool>());
  const auto out2 = build("BERT_pytorch", 2, 7)->forward(inputs).toTensor();
  EXPECT_TRUE(torch::equal(out1, out2));
  const auto out3 = build("BERT_pytorch", 2, 8)->forward(inputs).toTensor();
  EXPECT_FALSE(torch::equal(out1, out3));
}

TEST(ZooBert, LayerNormUsesUnbiasedStdPlusEps) {
  BertLayerNorm norm(4);
  const auto x = torch::tensor({{1.0f, 2.0f, 3.0f, 6.0f}});
  const auto expected = (x - 3.0) / (std::sqrt(14.0 / 3.0) + 1e-6);
  EXPECT_TRUE(torch::allclose(norm(x), expected, 1e-6, 1e-6));
}

// timm vit_small_patch16_224, D = 384, 196 patches + class token:
//   patch_embed.proj 16*16*3*D + D = 295,296; cls_token D = 384;
//   pos_embed 197*D = 75,648
//   per block  norm1 + norm2 2*2*D = 1,536; qkv D*3D + 3D = 443,520;
//              proj D*D + D = 147,840; fc1 D*4D + 4D = 591,360;
//              fc2 4D*D + D = 590,208                       block = 1,774,464
//   norm 2*D = 768; head D*1000 + 1000 = 385,000
//   total 295,296 + 384 + 75,648 + 12 * 1,774,464 + 768 + 385,000 = 22,050,664
TEST(ZooVit, ParameterCountAndNamesFollowTimm) {
  VisionTransformerImpl vit;
  EXPECT_EQ(parameter_count(vit), 22050664);
  EXPECT_EQ(shape_of(vit, "patch_embed.proj.weight"), (std::vector<int64_t>{384, 3, 16, 16}));
  EXPECT_EQ(shape_of(vit, "cls_token"), (std::vector<int64_t>{1, 1, 384}));
  EXPECT_EQ(shape_of(vit, "pos_embed"), (std::vector<int64_t>{1, 197, 384}));
  EXPECT_EQ(shape_of(vit, "blocks.11.attn.qkv.weight"), (std::vector<int64_t>{1152, 384}));
  EXPECT_EQ(shape_of(vit, "blocks.11.attn.qkv.bias"), (std::vector<int64_t>{1152}));
  EXPECT_EQ(shape_of(vit, "blocks.0.attn.proj.weight"), (std::vector<int64_t>{384, 384}));
  EXPECT_EQ(shape_of(vit, "blocks.0.norm1.weight"), (std::vector<int64_t>{384}));
  EXPECT_EQ(shape_of(vit, "blocks.0.norm2.bias"), (std::vector<int64_t>{384}));
  EXPECT_EQ(shape_of(vit, "blocks.4.mlp.fc1.weight"), (std::vector<int64_t>{1536, 384}));
  EXPECT_EQ(shape_of(vit, "blocks.4.mlp.fc2.weight"), (std::vector<int64_t>{384, 1536}));
  EXPECT_EQ(shape_of(vit, "norm.weight"), (std::vector<int64_t>{384}));
  EXPECT_EQ(shape_of(vit, "head.weight"), (std::vector<int64_t>{1000, 384}));
  EXPECT_DOUBLE_EQ(vit.norm->options.eps(), 1e-6);
  // timm init: truncated normal std 0.02 for linears, zero biases.
  EXPECT_NEAR(vit.head->weight.std().item<double>(), 0.02, 0.002);
  EXPECT_EQ(vit.head->bias.abs().sum().item<double>(), 0.0);
}

TEST(ZooVit, OutputShapeAndDeterminism) {
  auto first = build("timm_vision_transformer", 2, 7);
  const auto inputs = first->example_inputs();
  torch::NoGradGuard no_grad;
  const auto out1 = first->forward(inputs).toTensor();
  EXPECT_EQ(out1.sizes(), (std::vector<int64_t>{2, 1000}));
  const auto out2 = build("timm_vision_transformer", 2, 7)->forward(inputs).toTensor();
  EXPECT_TRUE(torch::equal(out1, out2));
}

TEST(ZooVit, TruncatedNormalStaysInBounds) {
  auto t = torch::empty({10000});
  trunc_normal_(t, 0.0, 1.0, -0.5, 0.5);
  EXPECT_GE(t.min().item<double>(), -0.5);
  EXPECT_LE(t.max().item<double>(), 0.5);
}

// FLOPs = 2 x MACs of conv/linear/matmul (see zoo/flops.h), per sample:
//   LinearModel (batch 2): 2 layers * 10*10 MACs * 2 rows = 400 MACs
//   small_convnet 64x64: 3->16 3x3: 64*64*16*27 = 1,769,472; 16->32 3x3:
//     64*64*32*144 = 18,874,368; linear 32*10 = 320     => 20,644,160 MACs
//   BERT (seq 128): linears 128*12*(4*768*768 + 2*768*3072) = 10,871,635,968;
//     attention 12 layers * 2 * 12 heads * 128*128*64 = 301,989,888
//   ViT-S/16: patches 196*384*768 = 57,802,752; per block linears
//     197*(384*1152 + 384*384 + 2*384*1536) = 348,585,984 and attention
//     2*6*197*197*64 = 29,805,312; head 384,000  => 4,598,882,304 MACs
TEST(ZooFlops, CountsConvolutionLinearAndMatmul) {
  auto count = [](const std::string& name, int64_t batch) {
    auto model = build(name, batch, 1);
    return count_flops(*model, model->example_inputs()).flops;
  };
  EXPECT_EQ(count("LinearModel", 2), 2 * 400);
  EXPECT_EQ(count("small_convnet", 1), 2 * 20644160);
  EXPECT_EQ(count("BERT_pytorch", 1), 2 * (10871635968LL + 301989888LL));
  EXPECT_EQ(count("timm_vision_transformer", 1), 2 * 4598882304LL);
  // torchvision ResNet-18: the commonly quoted 1.82 GMACs.
  const double resnet18 = count("resnet18", 1) / 2e9;
  EXPECT_NEAR(resnet18, 1.82, 0.01);
}

}  // namespace
}  // namespace tracebench
