#include "util/python_interpreter.h"

#include <cstdlib>

#include "util/build_config.h"

namespace tracebench {

std::string python_interpreter() {
  if (const char* chosen = std::getenv("TRACEBENCH_PYTHON"); chosen && *chosen) return chosen;
  return build_config::kPython;
}

std::string runtime_python() {
  if (const char* chosen = std::getenv("TRACEBENCH_RUNTIME_PYTHON"); chosen && *chosen) {
    return chosen;
  }
  return build_config::kRuntimePython;
}

}  // namespace tracebench
