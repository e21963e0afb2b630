#include "zoo/batch_norm_calibration.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include <type_traits>
#include <vector>

#include "util/tensor_tree.h"

namespace tracebench {

namespace {

// Its own seeds: the calibration inputs are no draw the example inputs or a
// run's input pool make.
constexpr uint64_t kCalibrationSeed = 20261207;

// `inputs` with each floating-point tensor redrawn as kCalibrationBatchSize
// standard-normal samples of its shape past the first dimension.
std::vector<c10::IValue> calibration_batch(const std::vector<c10::IValue>& inputs, int64_t batch) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(kCalibrationSeed + batch);
  std::vector<c10::IValue> drawn;
  for (const auto& input : inputs) {
    drawn.push_back(map_tensors(input, [&generator](const at::Tensor& tensor) -> at::Tensor {
      if (!tensor.is_floating_point() || tensor.dim() == 0) return tensor;
      auto shape = tensor.sizes().vec();
      shape[0] = kCalibrationBatchSize;
      return at::randn(shape, generator, tensor.options());
    }));
  }
  return drawn;
}

}  // namespace

void calibrate_batch_norms(torch::nn::Module& module, Model& model) {
  std::vector<torch::nn::BatchNorm2dImpl*> norms;
  for (const auto& child : module.modules()) {
    if (auto* norm = child->as<torch::nn::BatchNorm2d>()) norms.push_back(norm);
  }
  if (norms.empty()) return;
  // c10::optional on LibTorch 1.13, std::optional on 2.x.
  using Momentum = std::decay_t<decltype(norms.front()->options.momentum())>;
  std::vector<Momentum> momenta;
  for (auto* norm : norms) {
    momenta.push_back(norm->options.momentum());
    norm->options.momentum(Momentum());  // none: a cumulative average over every batch
    norm->reset_running_stats();
  }
  const bool was_training = module.is_training();
  module.train(true);
  {
    torch::NoGradGuard no_grad;
    const auto example = model.example_inputs();
    for (int64_t batch = 0; batch < kCalibrationBatches; ++batch) {
      model.forward(calibration_batch(example, batch));
    }
  }
  module.train(was_training);
  for (size_t i = 0; i < norms.size(); ++i) norms[i]->options.momentum(momenta[i]);
}

}  // namespace tracebench
