#pragma once
// The backends tracebench knows. A built-in backend is one file in this folder
// that ends with the line registering it by name:
//   const BuiltinBackend kEager("eager", [] { return std::make_unique<EagerBackend>(); });
// Plugins (--backend-plugin) and tests register theirs with register_backend.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tracebench/backend.h"

namespace tracebench {

using BackendFactory = std::function<std::unique_ptr<Backend>()>;

/// Registers a built-in backend while the program starts.
struct BuiltinBackend {
  BuiltinBackend(const char* name, BackendFactory factory);
};

/// The built-in backends by name, then those registered later, in the order
/// they were.
std::vector<std::string> backend_names();

/// A fresh instance of backend `name`, whose name() is `name`. Throws
/// UsageError listing the known ones.
std::unique_ptr<Backend> make_backend(const std::string& name);

/// The numerics of backend `name` (Backend::numerics); kExact for a name the
/// registry lacks, such as a plugin's in a report read elsewhere.
Numerics backend_numerics(const std::string& name);

/// Registers a backend created outside the built-in list (tests, plugins).
/// A name already known is replaced: the factory it had is returned (empty
/// for a new name), so that a test that plants a backend can put it back.
BackendFactory register_backend(const std::string& name, BackendFactory factory);

}  // namespace tracebench
