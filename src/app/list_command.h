#pragma once
// `tracebench list`: the built-in models and the backends, one line each.

#include <ostream>

namespace tracebench {

void print_model_and_backend_list(std::ostream& out);

}  // namespace tracebench
