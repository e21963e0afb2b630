#include "runner/backend_support.h"

namespace tracebench {

std::string unsupported_reason(const Backend& backend, Mode mode, Precision precision) {
  if (mode == Mode::kTraining && !backend.supports_training()) {
    return backend.name() + " does not support --training";
  }
  if (precision == Precision::kAmp && !backend.supports_amp()) {
    return backend.name() + " does not support --amp (CPU autocast does not reach its device)";
  }
  return "";
}

void warn_if_control_flow_was_traced(ResultRow& row, Model& model, const Backend& backend) {
  if (!backend.traces_model() || !model.has_control_flow()) return;
  row.warning_codes.push_back("traced_control_flow");
  row.warnings.push_back(row.backend +
                         ": traced one path of data-dependent control flow (the "
                         "model branches or loops at run time); check it with --accuracy "
                         "--randomize-input");
}

}  // namespace tracebench
