#pragma once
// Reads the file that Python's `torch.save(model.state_dict(), path)` writes
// (the zip format of PyTorch >= 1.6: a pickle plus one record per storage).
//
// LibTorch 1.13's torch::pickle_load cannot: it turns the state dict's
// collections.OrderedDict into None. This is a small pickle interpreter for
// what state dicts contain: dicts, tuples, lists, strings, numbers, tensors
// rebuilt with torch._utils._rebuild_tensor_v2 / _rebuild_parameter from
// persistent storage ids, and torch.jit._pickle.restore_type_tag (what
// torch::pickle_save writes).

#include <torch/types.h>

#include <string>
#include <utility>
#include <vector>

namespace tracebench {

/// The (name, tensor) pairs of the state dict at `path`, in file order.
/// Throws std::runtime_error, with a reason, for a file it cannot read.
std::vector<std::pair<std::string, torch::Tensor>> read_torch_save_state_dict(
    const std::string& path);

}  // namespace tracebench
