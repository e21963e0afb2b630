#include "zoo/mnasnet.h"

#include <algorithm>

#include "zoo/layers.h"

namespace tracebench {

namespace nn = torch::nn;

namespace {

// The TensorFlow reference's batch-norm decay of 0.9997, in PyTorch's convention.
constexpr double kBnMomentum = 1 - 0.9997;

nn::BatchNorm2d bn(int64_t channels, double momentum) {
  return nn::BatchNorm2d(nn::BatchNorm2dOptions(channels).momentum(momentum));
}

// torchvision's _stack: the first block changes shape (no skip), the rest keep it.
TensorSequential stack(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t expansion,
                       int64_t repeats) {
  TORCH_CHECK(repeats >= 1, "MNASNet stacks need >= 1 block");
  TensorSequential blocks;
  blocks->push_back(MnasInvertedResidual(in, out, kernel, stride, expansion, kBnMomentum));
  for (int64_t i = 1; i < repeats; ++i) {
    blocks->push_back(MnasInvertedResidual(out, out, kernel, 1, expansion, kBnMomentum));
  }
  return blocks;
}

// torchvision's _round_to_multiple_of with round_up_bias 0.9.
int64_t round_to_multiple_of(double value, int64_t divisor) {
  const int64_t rounded =
      std::max<int64_t>(divisor, static_cast<int64_t>(value + divisor / 2.0) / divisor * divisor);
  return rounded >= 0.9 * value ? rounded : rounded + divisor;
}

}  // namespace

std::vector<int64_t> mnasnet_depths(double alpha) {
  std::vector<int64_t> depths = {32, 16, 24, 40, 80, 96, 192, 320};
  for (auto& depth : depths) depth = round_to_multiple_of(depth * alpha, 8);
  return depths;
}

MnasInvertedResidualImpl::MnasInvertedResidualImpl(int64_t in_ch, int64_t out_ch,
                                                   int64_t kernel_size, int64_t stride,
                                                   int64_t expansion_factor, double bn_momentum) {
  TORCH_CHECK(stride == 1 || stride == 2, "MNASNet block stride must be 1 or 2, got ", stride);
  TORCH_CHECK(kernel_size == 3 || kernel_size == 5, "MNASNet kernel must be 3 or 5, got ",
              kernel_size);
  const int64_t mid = in_ch * expansion_factor;
  apply_residual = in_ch == out_ch && stride == 1;
  layers = register_module(
      "layers",
      nn::Sequential(conv_before_batch_norm(in_ch, mid, 1), bn(mid, bn_momentum), inplace_relu(),
                     conv_before_batch_norm(mid, mid, kernel_size, stride, mid),
                     bn(mid, bn_momentum), inplace_relu(), conv_before_batch_norm(mid, out_ch, 1),
                     bn(out_ch, bn_momentum)));
}

torch::Tensor MnasInvertedResidualImpl::forward(torch::Tensor x) {
  return apply_residual ? layers->forward(x) + x : layers->forward(x);
}

MnasNetImpl::MnasNetImpl(const MnasNetOptions& options) {
  TORCH_CHECK(options.alpha() > 0, "MNASNet needs alpha > 0, got ", options.alpha());
  TORCH_CHECK(options.num_classes() > 0, "MNASNet needs num_classes > 0");
  const auto d = mnasnet_depths(options.alpha());
  layers = register_module(
      "layers",
      nn::Sequential(conv_before_batch_norm(3, d[0], 3, 2), bn(d[0], kBnMomentum), inplace_relu(),
                     conv_before_batch_norm(d[0], d[0], 3, 1, d[0]), bn(d[0], kBnMomentum),
                     inplace_relu(), conv_before_batch_norm(d[0], d[1], 1), bn(d[1], kBnMomentum),
                     stack(d[1], d[2], 3, 2, 3, 3), stack(d[2], d[3], 5, 2, 3, 3),
                     stack(d[3], d[4], 5, 2, 6, 3), stack(d[4], d[5], 3, 1, 6, 2),
                     stack(d[5], d[6], 5, 2, 6, 4), stack(d[6], d[7], 3, 1, 6, 1),
                     conv_before_batch_norm(d[7], 1280, 1), bn(1280, kBnMomentum), inplace_relu()));
  classifier = register_module(
      "classifier", nn::Sequential(nn::Dropout(nn::DropoutOptions(options.dropout()).inplace(true)),
                                   nn::Linear(1280, options.num_classes())));

  init_like_torchvision(*this, LinearInit::kKaimingUniformSigmoid);
}

torch::Tensor MnasNetImpl::forward(torch::Tensor x) {
  // Global average pool that also drops H and W, as torchvision does.
  return classifier->forward(layers->forward(x).mean({2, 3}));
}

ZooEntry make_mnasnet1_0_entry() {
  return make_image_classifier_entry(
      "mnasnet1_0", "torchvision MNASNet B1, depth 1.0, 3x224x224",
      [] { return std::make_shared<MnasNetImpl>(MnasNetOptions(1.0)); });
}

}  // namespace tracebench
