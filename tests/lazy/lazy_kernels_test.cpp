// The project's own Lazy-key kernels (src/backends/lazy/lazy_kernels.cpp) against
// the CPU kernels they stand in for, on lazy tensors: same values, and not
// one op counted as an eager fallback (which would split a lazy graph).

#include <gtest/gtest.h>
#include <torch/script.h>

#include "backends/lazy/lazy_common.h"

namespace tracebench {
namespace {

class LazyKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    lazy::ensure_lazy_backend();
    torch::manual_seed(0);
    fallbacks_before_ = lazy::eager_fallback_counts();
  }
  void TearDown() override {
    EXPECT_TRUE(lazy::fallbacks_since(fallbacks_before_).empty())
        << "an op fell back to eager: " << lazy::fallbacks_since(fallbacks_before_).begin()->first;
  }
  static at::Tensor on_lazy(const at::Tensor& tensor) { return tensor.to(torch::kLazy); }
  static void expect_same(const at::Tensor& lazy_result, const at::Tensor& cpu_result) {
    ASSERT_EQ(lazy_result.sizes(), cpu_result.sizes());
    const auto result = lazy_result.to(torch::kCPU);
    EXPECT_TRUE(torch::allclose(result, cpu_result, 1e-4, 1e-5, /*equal_nan=*/true))
        << "max abs diff " << (result - cpu_result).abs().nan_to_num(0).max().item<double>();
  }

 private:
  std::map<std::string, int64_t> fallbacks_before_;
};

struct Attention {
  int64_t embed = 16;
  int64_t heads = 4;
  at::Tensor x = torch::randn({2, 5, 16});
  at::Tensor qkv_weight = torch::randn({48, 16}) * 0.2;
  at::Tensor qkv_bias = torch::randn({48});
  at::Tensor proj_weight = torch::randn({16, 16}) * 0.2;
  at::Tensor proj_bias = torch::randn({16});

  std::tuple<at::Tensor, at::Tensor> run(at::Device device, const c10::optional<at::Tensor>& mask,
                                         bool need_weights, bool average) const {
    const auto to = [&](const at::Tensor& t) { return t.to(device); };
    const auto input = to(x);
    return at::_native_multi_head_attention(
        input, input, input, embed, heads, to(qkv_weight), to(qkv_bias), to(proj_weight),
        to(proj_bias), mask ? c10::optional<at::Tensor>(to(*mask)) : c10::nullopt, need_weights,
        average, mask ? c10::optional<int64_t>(1) : c10::nullopt);
  }
};

TEST_F(LazyKernels, MultiHeadAttentionFastPathEqualsTheFusedKernel) {
  const Attention attention;
  for (bool average : {true, false}) {
    const auto [lazy_out, lazy_weights] = attention.run(torch::kLazy, c10::nullopt, true, average);
    const auto [cpu_out, cpu_weights] = attention.run(torch::kCPU, c10::nullopt, true, average);
    expect_same(lazy_out, cpu_out);
    expect_same(lazy_weights, cpu_weights);
  }
  const auto [lazy_out, lazy_weights] = attention.run(torch::kLazy, c10::nullopt, false, true);
  expect_same(lazy_out, std::get<0>(attention.run(torch::kCPU, c10::nullopt, false, true)));
  EXPECT_FALSE(lazy_weights.defined());
}

TEST_F(LazyKernels, MultiHeadAttentionHonoursAKeyPaddingMask) {
  const Attention attention;
  auto padding = torch::zeros({2, 5}, torch::kBool);
  padding.index_put_({0, torch::indexing::Slice(3)}, true);  // the last two keys of sample 0
  const auto [lazy_out, lazy_weights] = attention.run(torch::kLazy, padding, true, false);
  const auto [cpu_out, cpu_weights] = attention.run(torch::kCPU, padding, true, false);
  expect_same(lazy_out, cpu_out);
  expect_same(lazy_weights, cpu_weights);
  EXPECT_EQ(lazy_weights.to(torch::kCPU)
                .index({0, torch::indexing::Ellipsis, torch::indexing::Slice(3)})
                .abs()
                .sum()
                .item<double>(),
            0.0);
}

TEST_F(LazyKernels, RollAndNegativeIndexLookupStayLazy) {
  const auto x = torch::randn({4, 6});
  expect_same(at::roll(on_lazy(x), {1, -2}, {0, 1}), at::roll(x, {1, -2}, {0, 1}));
  expect_same(at::roll(on_lazy(x), {3}), at::roll(x, {3}));
  const auto positions = torch::tensor({-1, 0, 2, -4}, torch::kLong);
  expect_same(on_lazy(x).index({on_lazy(positions)}), x.index({positions}));
  expect_same(at::floor_divide(on_lazy(x), on_lazy(x.abs() + 0.5)),
              at::floor_divide(x, x.abs() + 0.5));
}

}  // namespace
}  // namespace tracebench
