#pragma once
#include "zoo/zoo_entry.h"

namespace tracebench {
ZooEntry make_linear_model_entry();
ZooEntry make_small_convnet_entry();
}  // namespace tracebench
