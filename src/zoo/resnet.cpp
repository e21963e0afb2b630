#include "zoo/resnet.h"

#include "zoo/layers.h"

#include "zoo/inputs.h"

namespace tracebench {

namespace {

torch::nn::Sequential projection(int64_t in, int64_t out, int64_t stride) {
  return torch::nn::Sequential(conv_before_batch_norm(in, out, 1, stride),
                               torch::nn::BatchNorm2d(out));
}

}  // namespace

BasicBlockImpl::BasicBlockImpl(int64_t inplanes, int64_t planes, int64_t stride, bool downsample,
                               int64_t groups, int64_t base_width) {
  TORCH_CHECK(groups == 1 && base_width == 64, "BasicBlock only supports groups=1, base_width=64");
  conv1 = register_module("conv1", conv_before_batch_norm(inplanes, planes, 3, stride));
  bn1 = register_module("bn1", torch::nn::BatchNorm2d(planes));
  conv2 = register_module("conv2", conv_before_batch_norm(planes, planes, 3, 1));
  bn2 = register_module("bn2", torch::nn::BatchNorm2d(planes));
  if (downsample) {
    this->downsample = register_module("downsample", projection(inplanes, planes, stride));
  }
}

// In place where torchvision is (ReLU(inplace=True), `out += identity`): the
// same values, without a fresh activation-sized tensor per op.
torch::Tensor BasicBlockImpl::forward(torch::Tensor x) {
  auto out = bn1(conv1(x)).relu_();
  out = bn2(conv2(out));
  out += downsample ? downsample->forward(x) : x;
  return out.relu_();
}

BottleneckImpl::BottleneckImpl(int64_t inplanes, int64_t planes, int64_t stride, bool downsample,
                               int64_t groups, int64_t base_width) {
  const int64_t width = planes * base_width / 64 * groups;
  conv1 = register_module("conv1", conv_before_batch_norm(inplanes, width, 1, 1));
  bn1 = register_module("bn1", torch::nn::BatchNorm2d(width));
  conv2 = register_module("conv2", conv_before_batch_norm(width, width, 3, stride, groups));
  bn2 = register_module("bn2", torch::nn::BatchNorm2d(width));
  conv3 = register_module("conv3", conv_before_batch_norm(width, planes * kExpansion, 1, 1));
  bn3 = register_module("bn3", torch::nn::BatchNorm2d(planes * kExpansion));
  if (downsample) {
    this->downsample =
        register_module("downsample", projection(inplanes, planes * kExpansion, stride));
  }
}

torch::Tensor BottleneckImpl::forward(torch::Tensor x) {
  auto out = bn1(conv1(x)).relu_();
  out = bn2(conv2(out)).relu_();
  out = bn3(conv3(out));
  out += downsample ? downsample->forward(x) : x;
  return out.relu_();
}

ResNetImpl::ResNetImpl(const ResNetOptions& options) : options_(options) {
  TORCH_CHECK(options.num_classes() > 0, "ResNet needs num_classes > 0");
  TORCH_CHECK(options.groups() > 0 && options.width_per_group() > 0,
              "ResNet needs positive groups and width_per_group");
  for (int64_t blocks : options.layers()) TORCH_CHECK(blocks > 0, "ResNet stages need >= 1 block");
  conv1 = register_module(
      "conv1",
      torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 64, 7).stride(2).padding(3).bias(false)));
  bn1 = register_module("bn1", torch::nn::BatchNorm2d(64));
  maxpool = register_module(
      "maxpool", torch::nn::MaxPool2d(torch::nn::MaxPool2dOptions(3).stride(2).padding(1)));
  const auto& layers = options.layers();
  layer1 = register_module("layer1", make_layer(64, layers[0], 1));
  layer2 = register_module("layer2", make_layer(128, layers[1], 2));
  layer3 = register_module("layer3", make_layer(256, layers[2], 2));
  layer4 = register_module("layer4", make_layer(512, layers[3], 2));
  avgpool = register_module(
      "avgpool", torch::nn::AdaptiveAvgPool2d(torch::nn::AdaptiveAvgPool2dOptions({1, 1})));
  fc = register_module("fc", torch::nn::Linear(inplanes_, options.num_classes()));

  init_like_torchvision(*this, LinearInit::kDefault);
}

torch::nn::Sequential ResNetImpl::make_layer(int64_t planes, int64_t blocks, int64_t stride) {
  const bool bottleneck = options_.block() == ResNetBlock::kBottleneck;
  const int64_t expansion = bottleneck ? BottleneckImpl::kExpansion : BasicBlockImpl::kExpansion;
  torch::nn::Sequential layer;
  for (int64_t i = 0; i < blocks; ++i) {
    const int64_t block_stride = i == 0 ? stride : 1;
    const bool downsample = i == 0 && (stride != 1 || inplanes_ != planes * expansion);
    const int64_t groups = options_.groups(), width = options_.width_per_group();
    if (bottleneck) {
      layer->push_back(Bottleneck(inplanes_, planes, block_stride, downsample, groups, width));
    } else {
      layer->push_back(BasicBlock(inplanes_, planes, block_stride, downsample, groups, width));
    }
    inplanes_ = planes * expansion;
  }
  return layer;
}

torch::Tensor ResNetImpl::forward(torch::Tensor x) {
  x = maxpool(bn1(conv1(x)).relu_());
  x = layer4->forward(layer3->forward(layer2->forward(layer1->forward(x))));
  return fc(torch::flatten(avgpool(x), 1));
}

namespace {

// One family, one line per variant: torchvision's resnet18/resnet50/resnext50_32x4d.
ZooEntry make_resnet_entry(const char* name, const char* description, ResNetOptions options) {
  return make_image_classifier_entry(name, description,
                                     [options] { return std::make_shared<ResNetImpl>(options); });
}

}  // namespace

ZooEntry make_resnet18_entry() {
  return make_resnet_entry("resnet18", "torchvision ResNet-18 (basic blocks 2-2-2-2), 3x224x224",
                           ResNetOptions(ResNetBlock::kBasic, {2, 2, 2, 2}));
}

ZooEntry make_resnet50_entry() {
  return make_resnet_entry("resnet50", "torchvision ResNet-50 (bottlenecks 3-4-6-3), 3x224x224",
                           ResNetOptions(ResNetBlock::kBottleneck, {3, 4, 6, 3}));
}

ZooEntry make_resnext50_32x4d_entry() {
  return make_resnet_entry(
      "resnext50_32x4d", "torchvision ResNeXt-50 32x4d (grouped bottlenecks 3-4-6-3), 3x224x224",
      ResNetOptions(ResNetBlock::kBottleneck, {3, 4, 6, 3}).groups(32).width_per_group(4));
}

}  // namespace tracebench
