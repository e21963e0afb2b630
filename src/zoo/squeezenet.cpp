#include "zoo/squeezenet.h"

#include "zoo/layers.h"

namespace tracebench {

namespace nn = torch::nn;

namespace {

nn::MaxPool2d ceil_max_pool() {
  return nn::MaxPool2d(nn::MaxPool2dOptions(3).stride(2).ceil_mode(true));
}

}  // namespace

FireImpl::FireImpl(int64_t inplanes, int64_t squeeze_planes, int64_t expand1x1_planes,
                   int64_t expand3x3_planes) {
  TORCH_CHECK(inplanes > 0 && squeeze_planes > 0 && expand1x1_planes > 0 && expand3x3_planes > 0,
              "Fire needs positive channel counts");
  squeeze = register_module("squeeze", nn::Conv2d(nn::Conv2dOptions(inplanes, squeeze_planes, 1)));
  squeeze_activation = register_module("squeeze_activation", inplace_relu());
  expand1x1 = register_module("expand1x1",
                              nn::Conv2d(nn::Conv2dOptions(squeeze_planes, expand1x1_planes, 1)));
  expand1x1_activation = register_module("expand1x1_activation", inplace_relu());
  expand3x3 = register_module(
      "expand3x3", nn::Conv2d(nn::Conv2dOptions(squeeze_planes, expand3x3_planes, 3).padding(1)));
  expand3x3_activation = register_module("expand3x3_activation", inplace_relu());
}

torch::Tensor FireImpl::forward(torch::Tensor x) {
  x = squeeze_activation(squeeze(x));
  return torch::cat({expand1x1_activation(expand1x1(x)), expand3x3_activation(expand3x3(x))}, 1);
}

SqueezeNetImpl::SqueezeNetImpl(const SqueezeNetOptions& options) {
  TORCH_CHECK(options.num_classes() > 0, "SqueezeNet needs num_classes > 0");
  if (options.version() == "1_0") {
    features = nn::Sequential(nn::Conv2d(nn::Conv2dOptions(3, 96, 7).stride(2)), inplace_relu(),
                              ceil_max_pool(), Fire(96, 16, 64, 64), Fire(128, 16, 64, 64),
                              Fire(128, 32, 128, 128), ceil_max_pool(), Fire(256, 32, 128, 128),
                              Fire(256, 48, 192, 192), Fire(384, 48, 192, 192),
                              Fire(384, 64, 256, 256), ceil_max_pool(), Fire(512, 64, 256, 256));
  } else if (options.version() == "1_1") {
    features = nn::Sequential(nn::Conv2d(nn::Conv2dOptions(3, 64, 3).stride(2)), inplace_relu(),
                              ceil_max_pool(), Fire(64, 16, 64, 64), Fire(128, 16, 64, 64),
                              ceil_max_pool(), Fire(128, 32, 128, 128), Fire(256, 32, 128, 128),
                              ceil_max_pool(), Fire(256, 48, 192, 192), Fire(384, 48, 192, 192),
                              Fire(384, 64, 256, 256), Fire(512, 64, 256, 256));
  } else {
    TORCH_CHECK(false, "unsupported SqueezeNet version ", options.version(), ": 1_0 or 1_1");
  }
  register_module("features", features);
  nn::Conv2d final_conv(nn::Conv2dOptions(512, options.num_classes(), 1));
  classifier = register_module(
      "classifier", nn::Sequential(nn::Dropout(options.dropout()), final_conv, inplace_relu(),
                                   nn::AdaptiveAvgPool2d(nn::AdaptiveAvgPool2dOptions({1, 1}))));

  // torchvision: N(0, 0.01) for the final convolution, Kaiming-uniform (fan_in,
  // a = 0) for the others, zero biases.
  torch::NoGradGuard no_grad;
  for (auto& module : modules(/*include_self=*/false)) {
    if (auto* c = module->as<nn::Conv2d>()) {
      if (c == final_conv.get()) {
        nn::init::normal_(c->weight, 0.0, 0.01);
      } else {
        nn::init::kaiming_uniform_(c->weight);
      }
      nn::init::zeros_(c->bias);
    }
  }
}

torch::Tensor SqueezeNetImpl::forward(torch::Tensor x) {
  return torch::flatten(classifier->forward(features->forward(x)), 1);
}

ZooEntry make_squeezenet1_1_entry() {
  return make_image_classifier_entry("squeezenet1_1", "torchvision SqueezeNet 1.1, 3x224x224", [] {
    return std::make_shared<SqueezeNetImpl>(SqueezeNetOptions("1_1"));
  });
}

}  // namespace tracebench
