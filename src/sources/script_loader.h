#pragma once
// Models saved as TorchScript archives (.pt), and the Python files exported to one.

#include <filesystem>
#include <memory>
#include <string>

#include "tracebench/model.h"

namespace tracebench {

/// Extra file in the archive holding `torch.save(list_of_example_inputs)`; the
/// Python exporter writes it. An archive may instead export a
/// `get_example_inputs` method (`@torch.jit.export`).
inline constexpr const char* kExampleInputsEntry = "tracebench/example_inputs.pt";
/// Extra file with the names of the flattened outputs, a JSON list of strings.
inline constexpr const char* kOutputPathsEntry = "tracebench/output_paths.json";
/// Extra file with the paths of the outputs the exporter left out (no
/// tensors), a JSON list of strings; missing in archives made before it.
inline constexpr const char* kDroppedOutputsEntry = "tracebench/dropped_outputs.json";

/// Loads `archive` and checks that it holds `class_name`. Its forward runs with
/// the JIT's graph optimizations off: the closest thing to eager without Python.
std::unique_ptr<Model> load_torchscript_model(const std::filesystem::path& archive,
                                              const std::string& class_name);

}  // namespace tracebench
