#include "execution/input_pool.h"

#include <ATen/CPUGeneratorImpl.h>

#include "execution/execution_settings.h"
#include "execution/shape_set.h"
#include "tracebench/error.h"
#include "util/tensor_tree.h"

namespace tracebench {

std::vector<c10::IValue> randomized_inputs(const std::vector<c10::IValue>& inputs, uint64_t seed,
                                           int64_t repetition) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed + 7919 * (repetition + 1));
  std::vector<c10::IValue> fresh;
  for (const auto& input : inputs) {
    // Tensors nested in tuples, lists and dicts (an RNN's (h, c)) too.
    fresh.push_back(map_tensors(input, [&generator](const at::Tensor& tensor) -> at::Tensor {
      if (!tensor.is_floating_point()) return tensor;
      if (tensor.is_sparse()) {  // the same pattern of nonzeros, new values
        const auto values = tensor._values();
        return at::sparse_coo_tensor(tensor._indices(),
                                     at::randn(values.sizes(), generator, values.options()),
                                     tensor.sizes())
            .coalesce();
      }
      return at::randn(tensor.sizes(), generator, tensor.options());
    }));
  }
  return fresh;
}

std::vector<std::vector<c10::IValue>> make_input_pool(const LoadedModel& loaded,
                                                      const RunOptions& options,
                                                      c10::ScalarType dtype) {
  std::vector<std::vector<c10::IValue>> pool;
  if (!loaded.input_sets.empty()) {
    const size_t wanted =
        options.input_pool > 0 ? static_cast<size_t>(options.input_pool) : loaded.input_sets.size();
    if (wanted > loaded.input_sets.size()) {
      throw UsageError("--input-pool " + std::to_string(wanted) +
                       " asks for more input sets than " + options.inputs_file + " holds (" +
                       std::to_string(loaded.input_sets.size()) +
                       "); save a list of that many sets, or ask for fewer");
    }
    pool.assign(loaded.input_sets.begin(), loaded.input_sets.begin() + wanted);
  } else if (const auto shapes = parse_shape_set(options.shape_set); !shapes.empty()) {
    pool = inputs_at_each_size(loaded.inputs, shapes);
  } else {
    pool.push_back(loaded.inputs);
    for (int64_t i = 1; i < options.input_pool; ++i) {
      pool.push_back(randomized_inputs(loaded.inputs, options.seed, i));
    }
  }
  for (auto& set : pool) set = cast_inputs(set, dtype);
  return pool;
}

}  // namespace tracebench
