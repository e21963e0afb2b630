#include "backends/static_int8.h"

#include <filesystem>

#include "backends/int8_cpu.h"
#include "backends/python_worker.h"
#include "util/cache.h"
#include "util/files.h"
#include "util/python_interpreter.h"
#include "util/text.h"

namespace tracebench {

namespace {

// What changes the quantized file besides the export (whose file name is
// its own content key) and the calibration data: the quantizer's settings
// (python/runtime_worker.py's quantize) and the ONNX Runtime whose quantizer
// writes it, as its Python reports it, so that a new pin in
// scripts/setup-peers.sh does not reuse files an older quantizer wrote.
std::string quantizer_settings(bool reduced_range) {
  return python_runtime_version(runtime_python(), "onnxruntime", "ONNX Runtime", "make build") +
         " qdq u8s8 per-tensor minmax" + (reduced_range ? " reduce_range" : "");
}

}  // namespace

QuantizedExport export_int8_onnx(Model& model, const CompileOptions& options) {
  QuantizedExport quantized;
  quantized.model = export_onnx(model, options);
  quantized.reduced_range = int8_needs_reduced_range();
  const auto& sets = options.calibration_inputs.empty()
                         ? std::vector<std::vector<c10::IValue>>{options.example_inputs}
                         : options.calibration_inputs;
  std::vector<at::Tensor> flat;
  std::string key = quantizer_settings(quantized.reduced_range);
  size_t per_set = 0;
  for (const auto& set : sets) {
    const auto tensors = tensor_inputs(set, "static int8 calibration");
    per_set = tensors.size();
    for (const auto& tensor : tensors) {
      const auto dense = tensor.contiguous();
      key.append(static_cast<const char*>(dense.data_ptr()), dense.nbytes());
      flat.push_back(dense);
    }
  }
  const auto& exported = quantized.model.file;
  const auto file =
      exported.parent_path() / (exported.stem().string() + "-int8-" + content_hash(key) + ".onnx");
  quantized.model.cached = std::filesystem::exists(file);
  if (!quantized.model.cached) {
    const auto partial = partial_path_beside(file);
    PythonWorker worker(runtime_python());
    std::vector<at::Tensor> none;
    const auto reply = worker.request({{"op", "quantize"},
                                       {"model", exported.string()},
                                       {"output", partial.string()},
                                       {"per_set", per_set},
                                       {"reduce_range", quantized.reduced_range}},
                                      flat, none);
    if (reply.at("quantized_ops").get<int64_t>() == 0) {
      std::filesystem::remove(partial);
      throw UnsupportedModel(
          "ONNX Runtime's quantizer quantizes no convolution or matrix product of this model "
          "(its ops: " +
          join(reply.at("model_ops").get<std::vector<std::string>>(), ", ") + ")");
    }
    replace_file(partial, file);
  }
  quantized.model.file = file;
  return quantized;
}

}  // namespace tracebench
