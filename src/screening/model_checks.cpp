#include "screening/model_checks.h"

#include <limits>

#include "util/tensor_tree.h"
#include "util/text.h"

namespace tracebench {

std::string unsupported_reason(const Backend& backend, Mode mode, Precision precision,
                               int64_t streams) {
  if (mode == Mode::kTraining && !backend.supports_training()) {
    return backend.name() + " does not support --training";
  }
  if (precision == Precision::kAmp && !backend.supports_amp()) {
    return backend.name() + " does not support --amp (CPU autocast does not reach its device)";
  }
  const std::string serial = backend.concurrent_streams_unsupported();
  if (streams > 1 && !serial.empty()) return backend.name() + " " + serial;
  return "";
}

void warn_if_control_flow_was_traced(ResultRow& row, Model& model, const Backend& backend) {
  if (!backend.traces_model() || !model.has_control_flow()) return;
  row.add_warning("traced_control_flow",
                  row.backend +
                      ": traced one path of data-dependent control flow (the "
                      "model branches or loops at run time); check it with --accuracy "
                      "--randomize-input");
}

void warn_of_dropped_outputs(ResultRow& row, const std::vector<std::string>& dropped) {
  if (dropped.empty()) return;
  row.add_warning("non_tensor_outputs",
                  "forward also returns values that are no tensors, left out of the timing and "
                  "the comparison: " +
                      join(dropped, ", "));
}

bool has_non_finite(const c10::IValue& value) {
  bool found = false;
  for_each_tensor(value, [&found](const at::Tensor& tensor) {
    if (found || !tensor.defined() || !(tensor.is_floating_point() || tensor.is_complex())) return;
    found = !torch::isfinite(tensor).all().item<bool>();
  });
  return found;
}

int64_t count_denormals(const c10::IValue& value) {
  int64_t count = 0;
  for_each_tensor(value, [&count](const at::Tensor& tensor) {
    if (!tensor.defined() || tensor.scalar_type() != at::kFloat) return;
    const auto magnitude = tensor.abs();
    count +=
        ((magnitude > 0) & (magnitude < std::numeric_limits<float>::min())).sum().item<int64_t>();
  });
  return count;
}

std::string non_finite_warning(const c10::IValue& output) {
  return has_non_finite(output) ? "warning: eager output holds NaN or Inf" : "";
}

}  // namespace tracebench
