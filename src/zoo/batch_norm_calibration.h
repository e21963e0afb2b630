#pragma once
// The built-in models' data-dependent initialization (docs/models.md): a
// network with batch norms, built from random weights, runs its batch norms
// in eval mode with the constructor's statistics (mean 0, variance 1), which
// normalize nothing; layer after layer the activations shrink until the
// outputs sit at the noise floor (mobilenet_v2 and mnasnet1_0 did), where no
// accuracy figure means anything. Running statistics measured on seeded
// inputs, as training would leave them, keep every layer's activations at
// unit scale.

#include <torch/nn/module.h>

#include "tracebench/model.h"

namespace tracebench {

/// Batches and samples per batch the statistics are measured over, whatever
/// the run's batch size: a --batch-size sweep times one set of weights.
inline constexpr int64_t kCalibrationBatches = 2;
inline constexpr int64_t kCalibrationBatchSize = 4;

/// Sets the running statistics of every BatchNorm2d in `module` (the module
/// `model` runs) to the cumulative mean and variance over
/// kCalibrationBatches batches of kCalibrationBatchSize standard-normal
/// inputs shaped like `model`'s example inputs along their first dimension,
/// each drawn from a generator seeded for it (the global torch seed, which
/// draws the parameters, is not touched). Each batch norm's momentum and the
/// module's training mode are as before. Does nothing without batch norms.
void calibrate_batch_norms(torch::nn::Module& module, Model& model);

}  // namespace tracebench
