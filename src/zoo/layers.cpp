#include "zoo/layers.h"

namespace tracebench {

torch::nn::ReLU inplace_relu() { return torch::nn::ReLU(torch::nn::ReLUOptions(/*inplace=*/true)); }

torch::nn::Conv2d conv_before_batch_norm(int64_t in, int64_t out, int64_t kernel, int64_t stride,
                                         int64_t groups) {
  return torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, kernel)
                               .stride(stride)
                               .padding(kernel / 2)
                               .groups(groups)
                               .bias(false));
}

void init_like_torchvision(torch::nn::Module& root, LinearInit linear_init) {
  namespace nn = torch::nn;
  torch::NoGradGuard no_grad;
  for (auto& module : root.modules(/*include_self=*/false)) {
    if (auto* conv = module->as<nn::Conv2d>()) {
      nn::init::kaiming_normal_(conv->weight, 0.0, torch::kFanOut, torch::kReLU);
      if (conv->bias.defined()) nn::init::zeros_(conv->bias);
    } else if (auto* norm = module->as<nn::BatchNorm2d>()) {
      nn::init::ones_(norm->weight);
      nn::init::zeros_(norm->bias);
    } else if (auto* linear = module->as<nn::Linear>()) {
      if (linear_init == LinearInit::kDefault) continue;
      if (linear_init == LinearInit::kNormal) {
        nn::init::normal_(linear->weight, 0.0, 0.01);
      } else {
        nn::init::kaiming_uniform_(linear->weight, 0.0, torch::kFanOut, torch::kSigmoid);
      }
      nn::init::zeros_(linear->bias);
    }
  }
}

}  // namespace tracebench
