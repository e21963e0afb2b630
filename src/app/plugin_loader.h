#pragma once
// Backend plugins (`--backend-plugin FILE`): a shared library, or a C++ source
// compiled and cached exactly like a model file, whose backends are exported
// with TRACEBENCH_REGISTER_BACKEND (include/tracebench/backend.h).

#include <filesystem>
#include <string>
#include <vector>

namespace tracebench {

/// Loads `file` (.so, or .cpp/.cc/.cxx compiled first) and registers each
/// backend it exports. Returns their names. Throws UsageError naming the fix
/// (missing file, compile error, no backend in it).
std::vector<std::string> load_backend_plugin(const std::filesystem::path& file);

/// The names NAME of the defined `tracebench_backend_NAME` symbols in the
/// dynamic symbol table of the ELF image `bytes`. Empty for anything that is
/// not a 64-bit ELF file; never reads out of bounds.
std::vector<std::string> exported_backend_names(const std::string& bytes);

}  // namespace tracebench
