#pragma once
// Models defined in a Python file, as in the seed's model_collection.py:
// exported once by Debian's python3 + python3-torch into a cached TorchScript
// archive (python/export_model.py), then loaded like any .pt file.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tracebench/model.h"

namespace tracebench {

/// The interpreter used: $TRACEBENCH_PYTHON, else /usr/bin/python3 (Debian's,
/// which has torch; a python3 earlier on PATH may not).
std::string python_interpreter();

std::unique_ptr<Model> load_python_model(const std::filesystem::path& file,
                                         const std::string& class_name,
                                         const std::vector<std::vector<int64_t>>& input_shapes);

}  // namespace tracebench
