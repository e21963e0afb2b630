#pragma once
// TorchBench's BERT_pytorch (torchbenchmark/models/BERT_pytorch, after
// codertimo/BERT-pytorch): the BERT encoder that TorchBench's get_module()
// returns, with the reference's parameter names (embedding.token,
// transformer_blocks.N.attention.linear_layers.M, input_sublayer.norm.a_2, ...).

#include <torch/torch.h>

#include <cstdint>

#include "zoo/zoo_entry.h"

namespace tracebench {

struct BertOptions {
  /// TorchBench builds its vocabulary from a random corpus of 20,000 word ids
  /// plus 5 special tokens (<pad> <unk> <eos> <sos> <mask>): 20,005 (its exact
  /// length depends on that random corpus; see docs/models.md).
  TORCH_ARG(int64_t, vocab_size) = 20005;
  TORCH_ARG(int64_t, hidden) = 768;
  TORCH_ARG(int64_t, n_layers) = 12;
  TORCH_ARG(int64_t, attn_heads) = 12;
  TORCH_ARG(double, dropout) = 0.1;
  /// Rows of the fixed sinusoidal position table.
  TORCH_ARG(int64_t, max_len) = 512;
  /// TorchBench's feed_forward.py uses nn.GELU() (exact, erf); codertimo's
  /// original used the tanh approximation. true selects the latter.
  TORCH_ARG(bool, tanh_gelu) = false;
};

/// The reference's own LayerNorm: a_2 * (x - mean) / (std + eps) + b_2, with
/// the unbiased standard deviation and eps added to it (not to the variance).
struct BertLayerNormImpl : torch::nn::Module {
  BertLayerNormImpl(int64_t features, double eps = 1e-6);
  torch::Tensor forward(torch::Tensor x);

  torch::Tensor a_2, b_2;
  double eps;
};
TORCH_MODULE(BertLayerNorm);

/// token + sinusoidal position (buffer `position.pe`, 1 x max_len x hidden) +
/// segment (3 entries: padding, sentence A, sentence B), then dropout.
struct BertEmbeddingImpl : torch::nn::Module {
  BertEmbeddingImpl(int64_t vocab_size, int64_t hidden, int64_t max_len, double dropout);
  torch::Tensor forward(torch::Tensor sequence, torch::Tensor segment_label);

  torch::nn::Embedding token{nullptr}, segment{nullptr};
  std::shared_ptr<torch::nn::Module> position;  // holds the `pe` buffer only
  torch::Tensor pe;
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(BertEmbedding);

struct BertAttentionImpl : torch::nn::Module {
  BertAttentionImpl(int64_t heads, int64_t hidden, double dropout);
  /// Self-attention; `mask` is B x 1 x S x S, false where a key is padding.
  torch::Tensor forward(torch::Tensor x, torch::Tensor mask);

  torch::nn::ModuleList linear_layers{nullptr};  // query, key, value
  torch::nn::Linear output_linear{nullptr};
  torch::nn::Dropout dropout{nullptr};  // on the attention probabilities
  int64_t heads, d_k;
};
TORCH_MODULE(BertAttention);

/// w_2(dropout(gelu(w_1(x)))).
struct BertFeedForwardImpl : torch::nn::Module {
  BertFeedForwardImpl(int64_t hidden, int64_t ff_hidden, double dropout, bool tanh_gelu);
  torch::Tensor forward(torch::Tensor x);

  torch::nn::Linear w_1{nullptr}, w_2{nullptr};
  torch::nn::Dropout dropout{nullptr};
  bool tanh_gelu;
};
TORCH_MODULE(BertFeedForward);

/// The reference's SublayerConnection: x + dropout(sublayer(norm(x))).
struct BertSublayerImpl : torch::nn::Module {
  BertSublayerImpl(int64_t hidden, double dropout);

  BertLayerNorm norm{nullptr};
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(BertSublayer);

/// Pre-norm block: attention sublayer, feed-forward sublayer, then dropout.
struct BertTransformerBlockImpl : torch::nn::Module {
  explicit BertTransformerBlockImpl(const BertOptions& options);
  torch::Tensor forward(torch::Tensor x, torch::Tensor mask);

  BertAttention attention{nullptr};
  BertFeedForward feed_forward{nullptr};
  BertSublayer input_sublayer{nullptr}, output_sublayer{nullptr};
  torch::nn::Dropout dropout{nullptr};
};
TORCH_MODULE(BertTransformerBlock);

struct BertImpl : torch::nn::Module {
  explicit BertImpl(const BertOptions& options = {});
  /// `x`: token ids (B x S, int64, 0 = padding); `segment_info`: 0/1/2 (B x S).
  /// Returns the B x S x hidden encoding.
  torch::Tensor forward(torch::Tensor x, torch::Tensor segment_info);

  BertEmbedding embedding{nullptr};
  torch::nn::ModuleList transformer_blocks{nullptr};
};
TORCH_MODULE(Bert);

/// TorchBench-like inputs: each row is a short sentence pair (6 to 12 tokens,
/// segments 1 and 2) padded with 0 to `seq_len`.
std::vector<c10::IValue> bert_example_inputs(int64_t batch_size, int64_t seq_len,
                                             int64_t vocab_size);

ZooEntry make_bert_pytorch_entry();

}  // namespace tracebench
