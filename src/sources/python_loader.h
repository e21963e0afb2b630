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

std::unique_ptr<Model> load_python_model(const std::filesystem::path& file,
                                         const std::string& class_name,
                                         const std::vector<std::vector<int64_t>>& input_shapes);

}  // namespace tracebench
