#pragma once
// --save-optimized: a row's compiled model written as a TorchScript module
// that C++ (torch::jit::load) and Python (torch.jit.load) can load and call
// with the model's inputs.

#include <string>

#include "report/result_row.h"
#include "tracebench/backend.h"

namespace tracebench {

/// Where `--save-optimized PATH` puts a model's module for a backend: PATH
/// itself when it ends in .pt (a run of one model and one backend), else
/// PATH/<model>.<backend>.pt.
std::string saved_module_path(const std::string& path, const std::string& model,
                              const std::string& backend);

/// Whether PATH names one file (.pt) rather than a directory.
bool names_one_saved_module(const std::string& path);

/// Saves what `compiled` offers (CompiledModel::saveable_graph) to `path`.
/// The row warns `saved_frozen` when the file needs the loader's step to be
/// what was timed, and `not_saved` (with why) when nothing could be saved.
void save_optimized_module(ResultRow& row, const CompiledModel& compiled, const std::string& path);

}  // namespace tracebench
