#pragma once
// The built-in model registry. A new model is one file that defines a
// `ZooEntry make_<name>_entry()` plus one line in zoo.cpp.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tracebench/model.h"

namespace tracebench {

struct ZooEntry {
  std::string name;
  std::string description;
  /// Batch size used when --batch-size is not given (see zoo.cpp for reasons).
  int64_t default_batch_size = 1;
  /// Builds the model (parameters from the current torch seed) whose example
  /// inputs have the given batch size.
  std::function<std::unique_ptr<Model>(int64_t batch_size)> make;
};

/// Every built-in model, sorted by name.
const std::vector<ZooEntry>& zoo_models();

/// The entry called `name`, or nullptr.
const ZooEntry* find_zoo_model(const std::string& name);

/// Wraps a torch::nn module as a zoo model whose inputs come from `inputs_fn`.
template <typename Module>
std::unique_ptr<Model> make_zoo_model(const std::string& name, std::shared_ptr<Module> module,
                                      std::function<std::vector<c10::IValue>()> inputs_fn) {
  return std::make_unique<NnModel<Module>>(name, std::move(module), std::move(inputs_fn));
}

}  // namespace tracebench
