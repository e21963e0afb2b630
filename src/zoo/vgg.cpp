#include "zoo/vgg.h"

#include "zoo/layers.h"

namespace tracebench {

namespace nn = torch::nn;

const VggConfig& vgg_config(char name) {
  constexpr int64_t M = kVggMaxPool;
  static const VggConfig a = {64, M, 128, M, 256, 256, M, 512, 512, M, 512, 512, M};
  static const VggConfig b = {64, 64, M, 128, 128, M, 256, 256, M, 512, 512, M, 512, 512, M};
  static const VggConfig d = {64, 64,  M,   128, 128, M,   256, 256, 256,
                              M,  512, 512, 512, M,   512, 512, 512, M};
  static const VggConfig e = {64,  64,  M,   128, 128, M,   256, 256, 256, 256, M,
                              512, 512, 512, 512, M,   512, 512, 512, 512, M};
  switch (name) {
    case 'A':
      return a;
    case 'B':
      return b;
    case 'D':
      return d;
    case 'E':
      return e;
  }
  TORCH_CHECK(false, "unknown VGG configuration '", name, "' (A, B, D or E)");
}

VggImpl::VggImpl(const VggOptions& options) {
  TORCH_CHECK(!options.config().empty(), "VGG needs a non-empty layer configuration");
  TORCH_CHECK(options.num_classes() > 0, "VGG needs num_classes > 0");
  TORCH_CHECK(options.dropout() >= 0 && options.dropout() <= 1, "VGG dropout must be in [0, 1]");
  nn::Sequential layers;
  int64_t in_channels = 3;
  for (int64_t v : options.config()) {
    if (v == kVggMaxPool) {
      layers->push_back(nn::MaxPool2d(nn::MaxPool2dOptions(2).stride(2)));
      continue;
    }
    TORCH_CHECK(v > 0, "VGG channel counts must be positive");
    layers->push_back(nn::Conv2d(nn::Conv2dOptions(in_channels, v, 3).padding(1)));
    if (options.batch_norm()) layers->push_back(nn::BatchNorm2d(v));
    layers->push_back(inplace_relu());
    in_channels = v;
  }
  features = register_module("features", layers);
  avgpool = register_module("avgpool", nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({7, 7})));
  classifier = register_module(
      "classifier",
      nn::Sequential(nn::Linear(512 * 7 * 7, 4096), inplace_relu(), nn::Dropout(options.dropout()),
                     nn::Linear(4096, 4096), inplace_relu(), nn::Dropout(options.dropout()),
                     nn::Linear(4096, options.num_classes())));

  init_like_torchvision(*this, LinearInit::kNormal);
}

torch::Tensor VggImpl::forward(torch::Tensor x) {
  x = avgpool(features->forward(x));
  return classifier->forward(torch::flatten(x, 1));
}

ZooEntry make_vgg16_entry() {
  return make_image_classifier_entry(
      "vgg16", "torchvision VGG-16 (configuration D, no batch norm), 3x224x224",
      [] { return std::make_shared<VggImpl>(VggOptions(vgg_config('D'))); });
}

}  // namespace tracebench
