#include "zoo/alexnet.h"

#include "zoo/layers.h"

namespace tracebench {

namespace {

namespace nn = torch::nn;

nn::Conv2d conv(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t padding) {
  return nn::Conv2d(nn::Conv2dOptions(in, out, kernel).stride(stride).padding(padding));
}

nn::MaxPool2d max_pool() { return nn::MaxPool2d(nn::MaxPool2dOptions(3).stride(2)); }

}  // namespace

AlexNetImpl::AlexNetImpl(const AlexNetOptions& options) {
  TORCH_CHECK(options.num_classes() > 0, "AlexNet needs num_classes > 0");
  TORCH_CHECK(options.dropout() >= 0 && options.dropout() <= 1,
              "AlexNet dropout must be in [0, 1]");
  // Indices match torchvision: features.0/3/6/8/10 are the convolutions.
  features = register_module("features",
                             nn::Sequential(conv(3, 64, 11, 4, 2), inplace_relu(), max_pool(),   //
                                            conv(64, 192, 5, 1, 2), inplace_relu(), max_pool(),  //
                                            conv(192, 384, 3, 1, 1), inplace_relu(),             //
                                            conv(384, 256, 3, 1, 1), inplace_relu(),             //
                                            conv(256, 256, 3, 1, 1), inplace_relu(), max_pool()));
  avgpool = register_module("avgpool", nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({6, 6})));
  // classifier.1/4/6 are the linear layers.
  classifier = register_module(
      "classifier",
      nn::Sequential(nn::Dropout(options.dropout()), nn::Linear(256 * 6 * 6, 4096), inplace_relu(),
                     nn::Dropout(options.dropout()), nn::Linear(4096, 4096), inplace_relu(),
                     nn::Linear(4096, options.num_classes())));
}

torch::Tensor AlexNetImpl::forward(torch::Tensor x) {
  x = avgpool(features->forward(x));
  return classifier->forward(torch::flatten(x, 1));
}

ZooEntry make_alexnet_entry() {
  return make_image_classifier_entry("alexnet", "torchvision AlexNet, 3x224x224",
                                     [] { return std::make_shared<AlexNetImpl>(); });
}

}  // namespace tracebench
