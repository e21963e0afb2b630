#include "zoo/bert.h"

#include <cmath>

namespace tracebench {

namespace nn = torch::nn;

BertLayerNormImpl::BertLayerNormImpl(int64_t features, double eps) : eps(eps) {
  TORCH_CHECK(features > 0, "LayerNorm needs features > 0");
  a_2 = register_parameter("a_2", torch::ones({features}));
  b_2 = register_parameter("b_2", torch::zeros({features}));
}

torch::Tensor BertLayerNormImpl::forward(torch::Tensor x) {
  auto mean = x.mean(-1, /*keepdim=*/true);
  auto std = x.std(-1, /*unbiased=*/true, /*keepdim=*/true);
  return a_2 * (x - mean) / (std + eps) + b_2;
}

BertEmbeddingImpl::BertEmbeddingImpl(int64_t vocab_size, int64_t hidden, int64_t max_len,
                                     double dropout_p) {
  TORCH_CHECK(vocab_size > 0 && hidden > 0 && max_len > 0,
              "BERT embedding needs positive vocab_size, hidden and max_len");
  TORCH_CHECK(hidden % 2 == 0, "BERT's sinusoidal position table needs an even hidden size");
  token = register_module("token",
                          nn::Embedding(nn::EmbeddingOptions(vocab_size, hidden).padding_idx(0)));
  // Fixed table: even columns sin(pos * w_i), odd columns cos(pos * w_i), with
  // w_i = 10000^(-2i / hidden), as in the reference (computed in float32).
  auto table = torch::zeros({max_len, hidden});
  auto positions = torch::arange(0, max_len, torch::kFloat32).unsqueeze(1);
  auto frequencies =
      (torch::arange(0, hidden, 2, torch::kFloat32) * -(std::log(10000.0) / hidden)).exp();
  using torch::indexing::None;
  using torch::indexing::Slice;
  table.index_put_({Slice(), Slice(0, None, 2)}, torch::sin(positions * frequencies));
  table.index_put_({Slice(), Slice(1, None, 2)}, torch::cos(positions * frequencies));
  position = register_module("position", std::make_shared<nn::Module>("PositionalEmbedding"));
  pe = position->register_buffer("pe", table.unsqueeze(0));
  segment =
      register_module("segment", nn::Embedding(nn::EmbeddingOptions(3, hidden).padding_idx(0)));
  dropout = register_module("dropout", nn::Dropout(dropout_p));
}

// Each token's position is counted from the tokens, not read from their
// length: a size read in C++ is a constant in every trace, whose graph would
// then run at the example's sequence length only (--shape-set dim1=...).
// The cast is explicit because PyTorch 1.13's ONNX export of the cumsum lost
// its dtype, and OpenVINO then refused the Gather's indices.
torch::Tensor BertEmbeddingImpl::forward(torch::Tensor sequence, torch::Tensor segment_label) {
  const auto positions = (torch::ones_like(sequence).cumsum(1) - 1).to(torch::kInt64);
  const auto positional = torch::embedding(pe[0], positions);
  return dropout(token(sequence) + positional + segment(segment_label));
}

BertAttentionImpl::BertAttentionImpl(int64_t heads, int64_t hidden, double dropout_p)
    : heads(heads), d_k(heads > 0 ? hidden / heads : 0) {
  TORCH_CHECK(heads > 0 && hidden % heads == 0, "BERT hidden size (", hidden,
              ") must be a multiple of the number of heads (", heads, ")");
  linear_layers = register_module(
      "linear_layers", nn::ModuleList(nn::Linear(hidden, hidden), nn::Linear(hidden, hidden),
                                      nn::Linear(hidden, hidden)));
  output_linear = register_module("output_linear", nn::Linear(hidden, hidden));
  dropout = register_module("dropout", nn::Dropout(dropout_p));
}

// Sizes read in C++ become constants of a trace, so the heads are split and
// merged by the dimensions they come from, never by the batch's size: a
// trace then runs at any batch (--shape-set batch=...).
torch::Tensor BertAttentionImpl::forward(torch::Tensor x, torch::Tensor mask) {
  auto project = [&](size_t i) {
    return linear_layers[i]
        ->as<nn::Linear>()
        ->forward(x)
        .unflatten(-1, {heads, d_k})
        .transpose(1, 2);
  };
  auto query = project(0), key = project(1), value = project(2);
  auto scores = torch::matmul(query, key.transpose(-2, -1)) / std::sqrt(static_cast<double>(d_k));
  scores = scores.masked_fill(mask == 0, -1e9);
  auto weights = dropout(torch::softmax(scores, -1));
  auto context = torch::matmul(weights, value).transpose(1, 2).flatten(2);
  return output_linear(context);
}

BertFeedForwardImpl::BertFeedForwardImpl(int64_t hidden, int64_t ff_hidden, double dropout_p,
                                         bool tanh_gelu)
    : tanh_gelu(tanh_gelu) {
  w_1 = register_module("w_1", nn::Linear(hidden, ff_hidden));
  w_2 = register_module("w_2", nn::Linear(ff_hidden, hidden));
  dropout = register_module("dropout", nn::Dropout(dropout_p));
}

torch::Tensor BertFeedForwardImpl::forward(torch::Tensor x) {
  return w_2(dropout(torch::gelu(w_1(x), tanh_gelu ? "tanh" : "none")));
}

BertSublayerImpl::BertSublayerImpl(int64_t hidden, double dropout_p) {
  norm = register_module("norm", BertLayerNorm(hidden));
  dropout = register_module("dropout", nn::Dropout(dropout_p));
}

BertTransformerBlockImpl::BertTransformerBlockImpl(const BertOptions& o) {
  attention = register_module("attention", BertAttention(o.attn_heads(), o.hidden(), o.dropout()));
  feed_forward = register_module(
      "feed_forward", BertFeedForward(o.hidden(), 4 * o.hidden(), o.dropout(), o.tanh_gelu()));
  input_sublayer = register_module("input_sublayer", BertSublayer(o.hidden(), o.dropout()));
  output_sublayer = register_module("output_sublayer", BertSublayer(o.hidden(), o.dropout()));
  dropout = register_module("dropout", nn::Dropout(o.dropout()));
}

torch::Tensor BertTransformerBlockImpl::forward(torch::Tensor x, torch::Tensor mask) {
  x = x + input_sublayer->dropout(attention(input_sublayer->norm(x), mask));
  x = x + output_sublayer->dropout(feed_forward(output_sublayer->norm(x)));
  return dropout(x);
}

BertImpl::BertImpl(const BertOptions& options) {
  TORCH_CHECK(options.n_layers() > 0, "BERT needs n_layers > 0");
  TORCH_CHECK(options.dropout() >= 0 && options.dropout() <= 1, "BERT dropout must be in [0, 1]");
  embedding = register_module("embedding", BertEmbedding(options.vocab_size(), options.hidden(),
                                                         options.max_len(), options.dropout()));
  transformer_blocks = register_module("transformer_blocks", nn::ModuleList());
  for (int64_t i = 0; i < options.n_layers(); ++i) {
    transformer_blocks->push_back(BertTransformerBlock(options));
  }
}

torch::Tensor BertImpl::forward(torch::Tensor x, torch::Tensor segment_info) {
  // B x 1 x 1 x S, broadcast over the heads and queries: any query may attend
  // key j where token j is not padding.
  auto mask = (x > 0).unsqueeze(1).unsqueeze(1);
  x = embedding(x, segment_info);
  for (const auto& block : *transformer_blocks) {
    x = block->as<BertTransformerBlock>()->forward(x, mask);
  }
  return x;
}

std::vector<c10::IValue> bert_example_inputs(int64_t batch_size, int64_t seq_len,
                                             int64_t vocab_size) {
  // Ids 1-4 are special tokens in the reference vocabulary; words start at 5.
  auto lengths = seeded_randint(6, 13, {batch_size, 1}, kExampleInputSeed).clamp_max(seq_len);
  auto words = seeded_randint(5, vocab_size, {batch_size, seq_len}, kExampleInputSeed + 1);
  auto position = torch::arange(seq_len, torch::kInt64).unsqueeze(0);
  auto tokens = words * (position < lengths);
  auto segments = torch::where(position < lengths.div(2, "floor"), torch::ones_like(position),
                               torch::full_like(position, 2)) *
                  (position < lengths);
  return {tokens, segments.expand({batch_size, seq_len}).contiguous()};
}

ZooEntry make_bert_pytorch_entry() {
  ZooEntry entry;
  entry.name = "BERT_pytorch";
  entry.description =
      "TorchBench BERT_pytorch encoder (12 pre-norm layers, hidden 768, 12 heads), seq 128";
  entry.default_batch_size = kBatchSetInZooTable;
  entry.make = [](int64_t batch_size) {
    constexpr int64_t kSeqLen = 128;
    const BertOptions options;
    auto net = std::make_shared<BertImpl>(options);
    return make_zoo_model("BERT_pytorch", net, [batch_size, vocab = options.vocab_size()] {
      return bert_example_inputs(batch_size, kSeqLen, vocab);
    });
  };
  return entry;
}

}  // namespace tracebench
