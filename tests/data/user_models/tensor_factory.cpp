// Causal self-attention whose forward creates tensors of its own: a
// positional ramp (torch::arange), a causal mask (torch::triu of torch::ones),
// a constant gate (torch::full) and a bias (torch::zeros_like), each made with
// the input's device and dtype.
//   tracebench --only=path:tests/data/user_models/tensor_factory.cpp,class:TensorFactoryModel
#include <tracebench/model.h>

#include <cmath>
#include <limits>

struct TensorFactoryModel : torch::nn::Module {
  static constexpr int64_t kDim = 32;

  TensorFactoryModel() {
    qkv = register_module("qkv", torch::nn::Linear(kDim, 3 * kDim));
    proj = register_module("proj", torch::nn::Linear(kDim, kDim));
  }

  torch::Tensor forward(torch::Tensor x) {
    const int64_t T = x.size(1), C = x.size(2);

    // Positional ramp 0, 1/T, ..., (T-1)/T added to every channel.
    auto ramp = torch::arange(T, x.options()) / static_cast<double>(T);
    x = x + ramp.view({1, T, 1});

    auto chunks = qkv(x).chunk(3, /*dim=*/-1);
    auto q = chunks[0], k = chunks[1], v = chunks[2];
    auto scores = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(static_cast<double>(C));

    // True above the diagonal: position i may not look at j > i.
    auto mask = torch::triu(torch::ones({T, T}, x.options().dtype(torch::kBool)), /*diagonal=*/1);
    scores = scores.masked_fill(mask, -std::numeric_limits<float>::infinity());
    auto out = proj(torch::matmul(torch::softmax(scores, /*dim=*/-1), v));

    auto gate = torch::full({1, 1, C}, 0.5, x.options());
    auto bias = torch::zeros_like(out) + 0.01;
    return x + gate * out + bias;
  }

  std::vector<torch::Tensor> get_example_inputs() { return {torch::randn({2, 16, kDim})}; }

  torch::nn::Linear qkv{nullptr}, proj{nullptr};
};
TRACEBENCH_REGISTER_MODEL(TensorFactoryModel)
