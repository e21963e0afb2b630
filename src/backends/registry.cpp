#include "backends/registry.h"

#include <map>
#include <utility>

#include "tracebench/error.h"
#include "util/text.h"

namespace tracebench {

namespace {

// Built-ins register during static initialization, in whatever order the
// linker put their files: they are kept sorted by name, so that `list` and
// the errors read the same on every build.
std::map<std::string, BackendFactory>& builtins() {
  static std::map<std::string, BackendFactory> all;
  return all;
}

std::vector<std::pair<std::string, BackendFactory>>& registered_later() {
  static std::vector<std::pair<std::string, BackendFactory>> all;
  return all;
}

BackendFactory* find_factory(const std::string& name) {
  if (auto builtin = builtins().find(name); builtin != builtins().end()) return &builtin->second;
  for (auto& [known, factory] : registered_later()) {
    if (known == name) return &factory;
  }
  return nullptr;
}

}  // namespace

BuiltinBackend::BuiltinBackend(const char* name, BackendFactory factory) {
  builtins()[name] = std::move(factory);
}

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : builtins()) names.push_back(name);
  for (const auto& [name, factory] : registered_later()) names.push_back(name);
  return names;
}

std::unique_ptr<Backend> make_backend(const std::string& name) {
  const BackendFactory* factory = find_factory(name);
  if (factory == nullptr) {
    throw UsageError("unknown backend '" + name + "'; choose from " + join(backend_names(), ", "));
  }
  auto backend = (*factory)();
  backend->registered_name_ = name;
  return backend;
}

Numerics backend_numerics(const std::string& name) {
  const BackendFactory* factory = find_factory(name);
  return factory == nullptr ? Numerics::kExact : (*factory)()->numerics();
}

BackendFactory register_backend(const std::string& name, BackendFactory factory) {
  if (BackendFactory* known = find_factory(name)) {
    std::swap(*known, factory);
    return factory;
  }
  registered_later().emplace_back(name, std::move(factory));
  return {};
}

}  // namespace tracebench
