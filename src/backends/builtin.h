#pragma once
// Factories of the built-in backends, one per file in this folder.

#include <memory>

#include "tracebench/backend.h"

namespace tracebench {

std::unique_ptr<Backend> make_eager_backend();                  // eager.cpp
std::unique_ptr<Backend> make_torchscript_backend();            // torchscript.cpp
std::unique_ptr<Backend> make_optimize_for_inference_backend(); // optimize_for_inference.cpp
std::unique_ptr<Backend> make_lazy_trace_everytime_backend();   // lazy_trace_everytime.cpp
std::unique_ptr<Backend> make_lazy_trace_once_backend();        // lazy_trace_once.cpp
std::unique_ptr<Backend> make_lazy_trace_once_unfrozen_backend();  // lazy_trace_once.cpp

}  // namespace tracebench
