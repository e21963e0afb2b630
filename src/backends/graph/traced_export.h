#pragma once
// The model traced, saved as TorchScript with its example inputs, and handed
// to an exporter script of python/ that writes another runtime's model file
// (an AOTInductor package, an ONNX model), cached by everything that makes
// it. The aot_inductor, openvino and onnxruntime backends start here.

#include <ATen/core/ivalue.h>

#include <filesystem>
#include <string>
#include <vector>

#include "backends/graph/graph_module.h"
#include "tracebench/backend.h"

namespace tracebench {

struct Exporter {
  std::string tool;    // names the exporter's verdict line: "<tool> export failed: ..."
  std::string script;  // python/export_*.py, run by `python`
  std::string python;
  std::string cache_folder;  // under cache_directory()
  std::string extension;     // of the file it writes: ".pt2", ".onnx"
  /// Whether the exported graph returns the model's outputs flat, one tensor
  /// after another in for_each_tensor's order (an ONNX graph has no tuples
  /// or dicts), or as the model returns them (torch.export flattens them itself).
  bool flatten_outputs = false;
  TensorConstants constants = TensorConstants::kInGraph;
  /// Whatever else changes the file: this CPU's features, for code compiled
  /// with -march=native.
  std::vector<std::string> key_extras;
  /// More arguments to the script (aot_inductor_bf16's "--precision bf16"),
  /// part of the cache key as well.
  std::vector<std::string> arguments;
};

struct ExportedModel {
  std::filesystem::path file;
  bool cached = false;  // found in the cache, not exported by this run
  /// One call of the model on the example inputs: the structure (tuples,
  /// dicts, non-tensor leaves) that refill_outputs puts flat outputs back into.
  c10::IValue output_structure;
};

/// The inputs' tensors, flat: depth first through tuples, lists and dicts (an
/// RNN's hidden state (h, c)), the order the exported graphs take them in.
/// Throws UnsupportedModel naming the first input holding something else (a
/// number, a string: `what` says who takes tensors only).
std::vector<at::Tensor> tensor_inputs(const std::vector<c10::IValue>& inputs,
                                      const std::string& what);

/// Traces `model` on the example inputs and saves the trace as a TorchScript
/// module at `module` (outputs flat with `flatten_outputs`, see Exporter) and
/// the inputs at `inputs` (torch::pickle_save, which Python's torch.load reads).
void save_trace(Model& model, const CompileOptions& options, bool flatten_outputs,
                TensorConstants constants, const std::filesystem::path& module,
                const std::filesystem::path& inputs);

/// Traces `model` and exports it with `exporter`, unless the cache holds the
/// file already. The exporter exits 3 for a model beyond it by design
/// (UnsupportedModel with its verdict line), non-zero otherwise for a failure
/// (std::runtime_error with that line).
ExportedModel export_traced_model(Model& model, const CompileOptions& options,
                                  const Exporter& exporter);

/// For a runtime with its own numerics, which takes a float32 model and no
/// --bfloat16 or --amp: throws UnsupportedModel naming the flag to drop.
void require_float32(const std::string& backend, Precision precision);

/// The model as an ONNX file (python/export_onnx.py): inputs input_0..., outputs
/// output_0... in for_each_tensor's order; for the runtimes that read ONNX.
ExportedModel export_onnx(Model& model, const CompileOptions& options);

/// `structure` with its tensors replaced by `flat`, in for_each_tensor's
/// order. Throws if the counts differ (`what` names who returned them).
c10::IValue refill_outputs(const c10::IValue& structure, const std::vector<at::Tensor>& flat,
                           const std::string& what);

}  // namespace tracebench
