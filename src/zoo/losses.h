#pragma once
// The zoo's natural training losses.

#include <cstdint>

#include "tracebench/model.h"

namespace tracebench {

inline constexpr uint64_t kTrainingLabelSeed = 7331;

/// Cross-entropy of the logits against `batch_size` seeded labels in
/// [0, classes): how an image classifier is trained (TorchBench's training
/// runs of torchvision models use it too).
TrainingLoss classification_loss(int64_t batch_size, int64_t classes);

}  // namespace tracebench
