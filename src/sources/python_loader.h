#pragma once
// Models defined in a Python file, as in the seed's model_collection.py:
// exported once by the Python with this build's torch (util/python_interpreter.h)
// into a cached TorchScript
// archive (python/export_model.py), then loaded like any .pt file.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tracebench/model.h"

namespace tracebench {

/// Exports `class_name` from `file` with python/export_model.py (torch seeded
/// with `seed`, so its parameters and random example inputs are the same on
/// every machine), caches the archive by all it depends on, and loads it.
std::unique_ptr<Model> load_python_model(const std::filesystem::path& file,
                                         const std::string& class_name,
                                         const std::vector<std::vector<int64_t>>& input_shapes,
                                         uint64_t seed);

}  // namespace tracebench
