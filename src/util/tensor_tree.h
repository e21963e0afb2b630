#pragma once
// Model inputs and outputs are trees: tensors inside tuples, lists and dicts,
// nested. One walker for everything that reads or rewrites their tensors.

#include <ATen/core/ivalue.h>

#include <functional>
#include <string>
#include <vector>

namespace tracebench {

/// Calls `visit` on every tensor in `value`, depth first, in element order
/// (a dict's values in its insertion order).
void for_each_tensor(const c10::IValue& value, const std::function<void(const at::Tensor&)>& visit);

/// The kind of the first value in `value`, depth first, that is neither a
/// tensor nor a tuple, list or dict ("int", "str", "None"); "" when every leaf
/// is a tensor.
std::string first_non_tensor_kind(const c10::IValue& value);

/// Whether every leaf of `value` is a tensor: a tensor, or tuples, lists and
/// dicts of them, nested (an RNN's hidden state (h, c)).
inline bool holds_tensors_only(const c10::IValue& value) {
  return first_non_tensor_kind(value).empty();
}

/// `value` with every tensor replaced by `map(tensor)`, visited in
/// for_each_tensor's order; everything else is kept as it is.
c10::IValue map_tensors(const c10::IValue& value,
                        const std::function<at::Tensor(const at::Tensor&)>& map);

/// Float tensors (nested ones too) cast to `dtype`; everything else unchanged.
std::vector<c10::IValue> cast_inputs(const std::vector<c10::IValue>& inputs, c10::ScalarType dtype);

}  // namespace tracebench
