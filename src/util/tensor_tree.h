#pragma once
// Model inputs and outputs are trees: tensors inside tuples, lists and dicts,
// nested. One walker for everything that reads or rewrites their tensors.

#include <ATen/core/ivalue.h>

#include <functional>

namespace tracebench {

/// Calls `visit` on every tensor in `value`, depth first, in element order
/// (a dict's values in its insertion order).
void for_each_tensor(const c10::IValue& value, const std::function<void(const at::Tensor&)>& visit);

/// `value` with every tensor replaced by `map(tensor)`, visited in
/// for_each_tensor's order; everything else is kept as it is.
c10::IValue map_tensors(const c10::IValue& value,
                        const std::function<at::Tensor(const at::Tensor&)>& map);

}  // namespace tracebench
