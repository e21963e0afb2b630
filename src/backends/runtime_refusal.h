#pragma once
// Telling a runtime's refusal of a model apart from a runtime that went wrong:
// the first makes the row `unsupported` (the backend's recipe does not cover
// the model), the second `fail_to_run` with the runtime's own message, so that
// a bug, a bad installation or an out-of-memory never hides among the models
// a backend cannot take.

#include <string>

namespace tracebench {

/// Whether `message`, from a runtime that was given a model, says that the
/// model or one of its ops is beyond the runtime: "not supported",
/// "unsupported", "not implemented" (any case), or OpenVINO's ONNX frontend's
/// "No conversion rule found". Nothing else counts.
bool runtime_refuses_model(const std::string& message);

}  // namespace tracebench
