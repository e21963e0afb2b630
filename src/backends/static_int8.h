#pragma once
// Static int8 for the runtimes that read ONNX: the trace's ONNX export
// quantized once, with calibrated activation ranges, by ONNX Runtime's own
// quantizer (QDQ: QuantizeLinear/DequantizeLinear pairs around each quantized
// op), which onnxruntime_int8 runs and OpenVINO reads natively for
// openvino_int8: both runtimes run one quantized model (docs/backends.md says
// why this quantizer).

#include "backends/graph/traced_export.h"
#include "tracebench/backend.h"

namespace tracebench {

/// Counter: the ops of the quantized model that compute from int8 data.
inline constexpr const char* kQuantizedOpsCounter = "quantized_ops";

struct QuantizedExport {
  ExportedModel model;         // the QDQ ONNX file, the fp32 export's output structure
  bool reduced_range = false;  // 7-bit activations: this CPU has no VNNI
};

/// The model's ONNX export quantized on options.calibration_inputs (the
/// example inputs without them), cached by the export, the calibration data,
/// the quantizer's settings and its version. Throws UnsupportedModel naming
/// the model's ops when the quantizer quantizes none of them.
QuantizedExport export_int8_onnx(Model& model, const CompileOptions& options);

}  // namespace tracebench
