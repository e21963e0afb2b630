#include "runner/output_check.h"

namespace tracebench {

bool has_non_finite(const c10::IValue& value) {
  if (value.isTensor()) {
    const auto& tensor = value.toTensor();
    if (!tensor.defined() || !(tensor.is_floating_point() || tensor.is_complex())) return false;
    return !torch::isfinite(tensor).all().item<bool>();
  }
  if (value.isTuple()) {
    for (const auto& element : value.toTupleRef().elements()) {
      if (has_non_finite(element)) return true;
    }
  }
  if (value.isList()) {
    for (const auto& element : value.toListRef()) {
      if (has_non_finite(element)) return true;
    }
  }
  if (value.isGenericDict()) {
    for (const auto& entry : value.toGenericDict()) {
      if (has_non_finite(entry.value())) return true;
    }
  }
  return false;
}

std::string non_finite_warning(const c10::IValue& output) {
  return has_non_finite(output) ? "warning: eager output holds NaN or Inf" : "";
}

}  // namespace tracebench
