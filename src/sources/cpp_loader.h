#pragma once
// Models defined in a C++ source file: compiled into a shared library with the
// harness's own compiler and flags, cached by content hash, loaded with dlopen.

#include <filesystem>
#include <memory>
#include <string>

#include "tracebench/model.h"

namespace tracebench {

/// Compiles (or reuses) `source` and creates `class_name`, which the file must
/// register with TRACEBENCH_REGISTER_MODEL. Throws UsageError naming the fix.
std::unique_ptr<Model> load_cpp_model(const std::filesystem::path& source,
                                      const std::string& class_name);

/// The shared library built from `source`, compiling it if the cache lacks it.
std::filesystem::path compile_model_source(const std::filesystem::path& source);

}  // namespace tracebench
