#pragma once
// `tracebench list`: the built-in models (parameters, default batch size,
// input shapes and FLOPs per forward at that batch size) and the backends.

#include <ostream>

namespace tracebench {

/// A table for people, or with `json` the same facts as one JSON document.
void print_model_and_backend_list(std::ostream& out, bool json = false);

}  // namespace tracebench
