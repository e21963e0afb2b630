#include "sources/load_model.h"

#include <optional>

#include <sstream>

#include "sources/cpp_loader.h"
#include "sources/python_loader.h"
#include "sources/script_loader.h"
#include "tracebench/error.h"
#include "util/tensor_tree.h"
#include "util/text.h"
#include "zoo/inputs.h"
#include "zoo/state_dict_reader.h"
#include "zoo/zoo.h"

namespace tracebench {

namespace {

std::string known_model_names() {
  std::vector<std::string> names;
  for (const auto& entry : zoo_models()) names.push_back(entry.name);
  return join(names, ", ");
}

std::unique_ptr<Model> load_from_file(const ModelSpec& spec, const LoadOptions& options) {
  switch (spec.file_kind) {
    case ModelFileKind::kCppSource:
      return load_cpp_model(spec.path, spec.name);
    case ModelFileKind::kTorchScript:
      return load_torchscript_model(spec.path, spec.name);
    case ModelFileKind::kPython:
      return load_python_model(spec.path, spec.name, options.input_shapes, options.seed);
  }
  throw UsageError("unsupported model file " + spec.path.string());
}

int64_t leading_dimension(const std::vector<c10::IValue>& inputs) {
  std::optional<int64_t> batch;
  for (const auto& input : inputs) {
    for_each_tensor(input, [&batch](const at::Tensor& tensor) {
      if (!batch && tensor.dim() > 0) batch = tensor.size(0);
    });
  }
  return batch.value_or(1);
}

// --inputs: each set of the file, checked against the example inputs it
// replaces (same count, same dtypes), so a mismatch is a one-line error here
// rather than a failure inside some backend.
std::vector<std::vector<c10::IValue>> input_sets_from_file(const std::string& path,
                                                           const std::vector<c10::IValue>& examples,
                                                           const std::string& model) {
  for (size_t i = 0; i < examples.size(); ++i) {
    if (!examples[i].isTensor()) {
      throw UsageError("--inputs " + path + ": " + model + "'s input " + std::to_string(i) +
                       " is a " + examples[i].tagKind() +
                       " of tensors, and --inputs reads one tensor per input; drop --inputs "
                       "(the example inputs and --input-pool still apply)");
    }
  }
  std::vector<std::vector<torch::Tensor>> sets;
  try {
    sets = read_torch_save_input_sets(path);
  } catch (const std::exception& error) {
    throw UsageError("--inputs " + path + ": " + error.what() +
                     "; write it with torch.save((x, mask), FILE)");
  }
  std::vector<std::vector<c10::IValue>> input_sets;
  for (size_t set = 0; set < sets.size(); ++set) {
    const std::string where = "--inputs " + path + ": set " + std::to_string(set);
    if (sets[set].size() != examples.size()) {
      throw UsageError(where + " holds " + std::to_string(sets[set].size()) + " tensor(s), but " +
                       model + " takes " + std::to_string(examples.size()) +
                       " (its example inputs); save one tensor per input");
    }
    std::vector<c10::IValue> inputs;
    for (size_t i = 0; i < sets[set].size(); ++i) {
      const auto expected = examples[i].toTensor().scalar_type();
      if (sets[set][i].scalar_type() != expected) {
        throw UsageError(where + ", input " + std::to_string(i) + " is " +
                         c10::toString(sets[set][i].scalar_type()) + ", but " + model +
                         "'s example input is " + c10::toString(expected) +
                         "; save tensors of the example inputs' types");
      }
      inputs.emplace_back(sets[set][i]);
    }
    input_sets.push_back(std::move(inputs));
  }
  return input_sets;
}

std::unique_ptr<Model> build_model(const ModelSpec& spec, const LoadOptions& options) {
  torch::manual_seed(options.seed);
  std::unique_ptr<Model> model;
  if (spec.from_path) {
    model = load_from_file(spec, options);
  } else {
    const ZooEntry* entry = find_zoo_model(spec.name);
    if (!entry) {
      throw UsageError("unknown model '" + spec.name + "'; built-in models are " +
                       known_model_names() + " (or use --only=path:FILE,class:NAME)");
    }
    model = entry->make(options.batch_size.value_or(entry->default_batch_size));
  }
  if (!options.weights.empty()) model->load_weights(options.weights);
  return model;
}

}  // namespace

std::vector<std::vector<int64_t>> parse_input_shapes(const std::string& text) {
  std::vector<std::vector<int64_t>> shapes;
  std::istringstream shape_list(text);
  std::string shape_text;
  while (std::getline(shape_list, shape_text, ',')) {
    std::vector<int64_t> shape;
    std::istringstream dims(shape_text);
    std::string dim;
    while (std::getline(dims, dim, 'x')) {
      size_t used = 0;
      long long value = 0;
      try {
        value = std::stoll(dim, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != dim.size() || value <= 0) {
        throw UsageError("bad input shape '" + shape_text +
                         "'; write positive sizes joined by x, e.g. --input-shapes 1x3x224x224");
      }
      shape.push_back(value);
    }
    if (shape.empty()) throw UsageError("empty input shape in '" + text + "'; e.g. 1x3x224x224");
    shapes.push_back(shape);
  }
  return shapes;
}

std::vector<c10::IValue> inputs_from_shapes(const std::vector<std::vector<int64_t>>& shapes) {
  std::vector<c10::IValue> inputs;
  for (size_t i = 0; i < shapes.size(); ++i) {
    inputs.emplace_back(seeded_randn(shapes[i], kExampleInputSeed + i));
  }
  return inputs;
}

LoadedModel load_model(const ModelSpec& spec, const LoadOptions& options) {
  LoadedModel loaded;
  loaded.name = spec.name;
  loaded.model = build_model(spec, options);
  loaded.reload = [spec, options] { return build_model(spec, options); };
  loaded.inputs = options.input_shapes.empty() ? loaded.model->example_inputs()
                                               : inputs_from_shapes(options.input_shapes);
  if (loaded.inputs.empty()) {
    throw UsageError(spec.name +
                     " has no example inputs; return at least one tensor from "
                     "get_example_inputs or pass --input-shapes");
  }
  for (const auto& input : loaded.inputs) {
    if (!holds_tensors_only(input)) {
      throw UsageError(spec.name + ".get_example_inputs returned a " +
                       first_non_tensor_kind(input) +
                       "; return tensors only (alone, or in tuples, lists and dicts)");
    }
  }
  if (!options.inputs_file.empty()) {
    loaded.input_sets = input_sets_from_file(options.inputs_file, loaded.inputs, spec.name);
    loaded.inputs = loaded.input_sets.front();
  }
  loaded.batch_size = leading_dimension(loaded.inputs);
  loaded.output_names = loaded.model->output_names();
  loaded.dropped_outputs = loaded.model->dropped_outputs();
  return loaded;
}

}  // namespace tracebench
