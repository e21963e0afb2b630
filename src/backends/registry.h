#pragma once
// The backends tracebench knows. A new backend is one file defining a
// `std::unique_ptr<Backend> make_<name>_backend()` plus one line in registry.cpp.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tracebench/backend.h"

namespace tracebench {

/// Names of all registered backends, in registration order.
std::vector<std::string> backend_names();

/// A fresh instance of backend `name`. Throws UsageError listing the known ones.
std::unique_ptr<Backend> make_backend(const std::string& name);

/// Registers a backend created outside the built-in list (tests, plugins).
/// A name already known is replaced.
void register_backend(const std::string& name, std::function<std::unique_ptr<Backend>()> factory);

}  // namespace tracebench
