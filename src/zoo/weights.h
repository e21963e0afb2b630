#pragma once
// Loads a Python state dict (`torch.save(model.state_dict(), path)`) into a
// torch::nn module whose parameter and buffer names follow the Python model.

#include <torch/nn/module.h>

#include <string>

namespace tracebench {

/// Copies every tensor of the state dict at `path` into the parameter or buffer
/// of the same name (values converted to the module's dtype). Throws UsageError,
/// in one line, when the file cannot be read or when its keys do not fit: it
/// names the missing, unexpected and mis-shaped keys. Nothing is copied then.
void load_state_dict(torch::nn::Module& module, const std::string& path);

}  // namespace tracebench
