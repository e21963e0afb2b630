#pragma once
// Reads the files that Python's `torch.save(model.state_dict(), path)` and
// `torch.save((x, mask), path)` write (the zip format of PyTorch >= 1.6: a
// pickle plus one record per storage).
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

/// Model inputs saved by torch.save (--inputs): one set from a tuple, list or
/// dict of tensors (a dict's values in its order), or several from a list of
/// such sets. Throws std::runtime_error, with a reason, for anything else.
std::vector<std::vector<torch::Tensor>> read_torch_save_input_sets(const std::string& path);

}  // namespace tracebench
