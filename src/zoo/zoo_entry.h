#pragma once
// What a built-in model family's file defines: a `ZooEntry make_<name>_entry()`
// (zoo/zoo.h lists them), built with the helpers below.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tracebench/model.h"
#include "zoo/batch_norm_calibration.h"
#include "zoo/inputs.h"
#include "zoo/losses.h"
#include "zoo/weights.h"

namespace tracebench {

/// What a family's make_*_entry() puts in default_batch_size: zoo.cpp's table
/// sets every model's real default in one place.
inline constexpr int64_t kBatchSetInZooTable = 1;

struct ZooEntry {
  std::string name;
  std::string description;
  /// Batch size used when --batch-size is not given (see zoo.cpp for reasons).
  int64_t default_batch_size = 1;
  /// Builds the model (parameters from the current torch seed) whose example
  /// inputs have the given batch size.
  std::function<std::unique_ptr<Model>(int64_t batch_size)> make;
};

/// Wraps a torch::nn module as a zoo model whose inputs come from `inputs_fn`,
/// whose --weights are a Python state dict (see zoo/weights.h) and which
/// trains with `loss` when given (else the harness's reduction). Its batch
/// norms' statistics are calibrated on seeded inputs (calibrate_batch_norms);
/// --weights replaces them with the file's.
template <typename Module>
std::unique_ptr<Model> make_zoo_model(const std::string& name, std::shared_ptr<Module> module,
                                      std::function<std::vector<c10::IValue>()> inputs_fn,
                                      std::optional<TrainingLoss> loss = std::nullopt) {
  Module& calibrated = *module;
  auto model = std::make_unique<NnModel<Module>>(name, std::move(module), std::move(inputs_fn));
  calibrate_batch_norms(calibrated, *model);
  model->set_weights_loader([](Module& m, const std::string& path) { load_state_dict(m, path); });
  if (loss) model->set_training_loss(std::move(*loss));
  return model;
}

/// An ImageNet classifier: one seeded Bx3x224x224 float input, trained with
/// cross-entropy over 1000 classes. `build` returns a std::shared_ptr to a
/// module (its parameters drawn from the current torch seed).
template <typename Build>
ZooEntry make_image_classifier_entry(std::string name, std::string description, Build build) {
  ZooEntry entry;
  entry.name = name;
  entry.description = std::move(description);
  entry.default_batch_size = kBatchSetInZooTable;
  entry.make = [name, build](int64_t batch_size) {
    return make_zoo_model(
        name, build(),
        [batch_size] {
          return std::vector<c10::IValue>{seeded_randn({batch_size, 3, 224, 224})};
        },
        classification_loss(batch_size, 1000));
  };
  return entry;
}

}  // namespace tracebench
