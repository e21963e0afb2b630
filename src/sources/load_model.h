#pragma once
// Turns a ModelSpec into a model and the inputs it will be benchmarked with.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sources/model_spec.h"
#include "tracebench/model.h"

namespace tracebench {

struct LoadOptions {
  /// Overrides a built-in model's default batch size.
  std::optional<int64_t> batch_size;
  /// Float input shapes used instead of get_example_inputs (e.g. {{1,3,224,224}}).
  std::vector<std::vector<int64_t>> input_shapes;
  /// torch's global seed when the model is built: fixes its initial parameters.
  uint64_t seed = 1337;
  /// A state dict saved by Python's torch.save to load into the model; empty: none.
  std::string weights;
  /// --inputs: input sets saved by Python's torch.save, used instead of the
  /// example inputs; empty: none.
  std::string inputs_file;
};

struct LoadedModel {
  std::string name;
  std::unique_ptr<Model> model;
  std::vector<c10::IValue> inputs;
  /// Every input set of --inputs (the first is `inputs`); empty without it.
  std::vector<std::vector<c10::IValue>> input_sets;
  /// Model::output_names(): how messages name the output tensors.
  std::vector<std::string> output_names;
  /// Model::dropped_outputs(): what forward returns beside its tensors.
  std::vector<std::string> dropped_outputs;
  /// The leading dimension of the first tensor input (what the CSV reports).
  int64_t batch_size = 0;
  /// Builds another instance with identical parameters, for runs that must not
  /// share state (training, accuracy references).
  std::function<std::unique_ptr<Model>()> reload;
};

/// Loads the model. Throws UsageError for anything the user can fix.
LoadedModel load_model(const ModelSpec& spec, const LoadOptions& options);

/// Parses "1x3x224x224,1x10" into shapes. Throws UsageError on a bad shape.
std::vector<std::vector<int64_t>> parse_input_shapes(const std::string& text);

/// Seeded standard-normal float tensors of the given shapes.
std::vector<c10::IValue> inputs_from_shapes(const std::vector<std::vector<int64_t>>& shapes);

}  // namespace tracebench
