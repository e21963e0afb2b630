#include "zoo/losses.h"

#include "zoo/inputs.h"

namespace tracebench {

TrainingLoss classification_loss(int64_t batch_size, int64_t classes) {
  TrainingLoss loss;
  loss.targets = {seeded_randint(0, classes, {batch_size}, kTrainingLabelSeed)};
  loss.loss = [](const c10::IValue& outputs, const std::vector<torch::Tensor>& targets) {
    const auto& logits = outputs.toTensor();
    auto labels = targets.at(0);
    // Inputs of another batch size than the example's: cycle the labels.
    if (labels.size(0) != logits.size(0)) {
      const int64_t copies = (logits.size(0) + labels.size(0) - 1) / labels.size(0);
      labels = labels.repeat({copies}).narrow(0, 0, logits.size(0));
    }
    return torch::nn::functional::cross_entropy(logits, labels);
  };
  return loss;
}

}  // namespace tracebench
