#pragma once
// --save-outputs DIR: what each backend returned for the first input set (the
// --inputs file's first set, else the example inputs), written the way
// Python's torch.save writes, so that a user checks tracebench's results
// against a reference of their own: DIR/<model>.<backend>.pt, eager's too.

#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

namespace tracebench {

/// Where a model's outputs under `backend` go: DIR/<model>.<backend>.pt.
std::string saved_outputs_path(const std::string& dir, const std::string& model,
                               const std::string& backend);

/// `output` as it is saved: a tensor as it is; a container as a dict from
/// each output's name to its tensor when `output_names` names every tensor of
/// it (in util/tensor_tree's order, as the .py loader's output paths do), else
/// as the model returned it.
c10::IValue outputs_to_save(const c10::IValue& output,
                            const std::vector<std::string>& output_names);

/// Writes outputs_to_save(output, output_names) to `path`, loadable by
/// Python's torch.load. Throws std::runtime_error when it cannot.
void save_outputs(const c10::IValue& output, const std::vector<std::string>& output_names,
                  const std::string& path);

}  // namespace tracebench
