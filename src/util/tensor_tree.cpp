#include "util/tensor_tree.h"

#include <vector>

namespace tracebench {

void for_each_tensor(const c10::IValue& value,
                     const std::function<void(const at::Tensor&)>& visit) {
  if (value.isTensor()) {
    visit(value.toTensor());
  } else if (value.isTuple()) {
    for (const auto& element : value.toTupleRef().elements()) for_each_tensor(element, visit);
  } else if (value.isList()) {
    for (const auto& element : value.toListRef()) for_each_tensor(element, visit);
  } else if (value.isGenericDict()) {
    for (const auto& entry : value.toGenericDict()) for_each_tensor(entry.value(), visit);
  }
}

std::string first_non_tensor_kind(const c10::IValue& value) {
  std::vector<c10::IValue> children;
  if (value.isTensor()) return "";
  if (value.isTuple()) {
    for (const auto& element : value.toTupleRef().elements()) children.push_back(element);
  } else if (value.isList()) {
    for (const auto& element : value.toListRef()) children.push_back(element);
  } else if (value.isGenericDict()) {
    for (const auto& entry : value.toGenericDict()) children.push_back(entry.value());
  } else {
    return value.tagKind();
  }
  for (const auto& child : children) {
    if (auto kind = first_non_tensor_kind(child); !kind.empty()) return kind;
  }
  return "";
}

c10::IValue map_tensors(const c10::IValue& value,
                        const std::function<at::Tensor(const at::Tensor&)>& map) {
  if (value.isTensor()) return map(value.toTensor());
  if (value.isTuple()) {
    std::vector<c10::IValue> elements;
    for (const auto& element : value.toTupleRef().elements()) {
      elements.push_back(map_tensors(element, map));
    }
    return c10::ivalue::Tuple::create(std::move(elements));
  }
  if (value.isList()) {
    // A copy keeps the list's element type (a Tensor[] stays one).
    auto list = value.toList().copy();
    for (size_t i = 0; i < list.size(); ++i) list.set(i, map_tensors(list.get(i), map));
    return list;
  }
  if (value.isGenericDict()) {
    auto dict = value.toGenericDict().copy();
    for (auto& entry : dict) entry.setValue(map_tensors(entry.value(), map));
    return dict;
  }
  return value;
}

std::vector<c10::IValue> cast_inputs(const std::vector<c10::IValue>& inputs,
                                     c10::ScalarType dtype) {
  std::vector<c10::IValue> cast;
  for (const auto& input : inputs) {
    cast.push_back(map_tensors(input, [dtype](const at::Tensor& tensor) {
      return tensor.is_floating_point() ? tensor.to(dtype) : tensor;
    }));
  }
  return cast;
}

}  // namespace tracebench
