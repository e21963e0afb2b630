#pragma once
// The built-in model registry. A new model is one file that defines a
// `ZooEntry make_<name>_entry()` (zoo/zoo_entry.h) plus one line in zoo.cpp.

#include <string>
#include <vector>

#include "zoo/zoo_entry.h"

namespace tracebench {

/// Every built-in model, sorted by name.
const std::vector<ZooEntry>& zoo_models();

/// The entry called `name`, or nullptr.
const ZooEntry* find_zoo_model(const std::string& name);

}  // namespace tracebench
