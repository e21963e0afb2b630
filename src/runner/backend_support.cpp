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

}  // namespace tracebench
