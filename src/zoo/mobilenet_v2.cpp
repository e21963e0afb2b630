#include "zoo/mobilenet_v2.h"

#include <algorithm>

#include "zoo/layers.h"

namespace tracebench {

namespace nn = torch::nn;

namespace {

// torchvision's Conv2dNormActivation(..., activation_layer=nn.ReLU6): a
// Sequential of conv (no bias), batch norm and ReLU6, named 0, 1, 2.
TensorSequential conv_bn_relu6(int64_t in, int64_t out, int64_t kernel, int64_t stride = 1,
                               int64_t groups = 1) {
  return TensorSequential(nn::Conv2d(nn::Conv2dOptions(in, out, kernel)
                                         .stride(stride)
                                         .padding((kernel - 1) / 2)
                                         .groups(groups)
                                         .bias(false)),
                          nn::BatchNorm2d(out), nn::ReLU6(nn::ReLU6Options(true)));
}

}  // namespace

int64_t make_divisible(double value, int64_t divisor) {
  int64_t rounded =
      std::max<int64_t>(divisor, static_cast<int64_t>(value + divisor / 2.0) / divisor * divisor);
  if (rounded < 0.9 * value) rounded += divisor;
  return rounded;
}

InvertedResidualImpl::InvertedResidualImpl(int64_t inp, int64_t oup, int64_t stride,
                                           int64_t expand_ratio) {
  TORCH_CHECK(stride == 1 || stride == 2, "InvertedResidual stride must be 1 or 2, got ", stride);
  TORCH_CHECK(expand_ratio >= 1, "InvertedResidual expand_ratio must be >= 1");
  const int64_t hidden = inp * expand_ratio;
  use_res_connect = stride == 1 && inp == oup;
  nn::Sequential layers;
  if (expand_ratio != 1) layers->push_back(conv_bn_relu6(inp, hidden, 1));
  layers->push_back(conv_bn_relu6(hidden, hidden, 3, stride, hidden));
  layers->push_back(nn::Conv2d(nn::Conv2dOptions(hidden, oup, 1).bias(false)));
  layers->push_back(nn::BatchNorm2d(oup));
  conv = register_module("conv", layers);
}

torch::Tensor InvertedResidualImpl::forward(torch::Tensor x) {
  return use_res_connect ? x + conv->forward(x) : conv->forward(x);
}

MobileNetV2Impl::MobileNetV2Impl(const MobileNetV2Options& options) {
  TORCH_CHECK(options.num_classes() > 0, "MobileNetV2 needs num_classes > 0");
  TORCH_CHECK(options.width_mult() > 0, "MobileNetV2 needs width_mult > 0");
  TORCH_CHECK(!options.inverted_residual_setting().empty(),
              "MobileNetV2 needs a non-empty inverted_residual_setting");
  const int64_t divisor = options.round_nearest();
  int64_t input_channel = make_divisible(32 * options.width_mult(), divisor);
  const int64_t last_channel = make_divisible(1280 * std::max(1.0, options.width_mult()), divisor);

  nn::Sequential layers;
  layers->push_back(conv_bn_relu6(3, input_channel, 3, 2));
  for (const auto& [t, c, n, s] : options.inverted_residual_setting()) {
    const int64_t output_channel = make_divisible(c * options.width_mult(), divisor);
    for (int64_t i = 0; i < n; ++i) {
      layers->push_back(InvertedResidual(input_channel, output_channel, i == 0 ? s : 1, t));
      input_channel = output_channel;
    }
  }
  layers->push_back(conv_bn_relu6(input_channel, last_channel, 1));
  features = register_module("features", layers);
  classifier = register_module("classifier",
                               nn::Sequential(nn::Dropout(options.dropout()),
                                              nn::Linear(last_channel, options.num_classes())));

  init_like_torchvision(*this, LinearInit::kNormal);
}

torch::Tensor MobileNetV2Impl::forward(torch::Tensor x) {
  x = torch::adaptive_avg_pool2d(features->forward(x), {1, 1});
  return classifier->forward(torch::flatten(x, 1));
}

ZooEntry make_mobilenet_v2_entry() {
  return make_image_classifier_entry("mobilenet_v2",
                                     "torchvision MobileNetV2 (width 1.0), 3x224x224",
                                     [] { return std::make_shared<MobileNetV2Impl>(); });
}

}  // namespace tracebench
