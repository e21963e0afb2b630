// libFuzzer target: parse_model_spec on any text. It may only return a spec or
// throw UsageError; it must not crash, hang, or throw anything else.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sources/model_spec.h"
#include "tracebench/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto spec = tracebench::parse_model_spec(text, "/work");
    if (spec.from_path && (spec.name.empty() || spec.path.empty())) __builtin_trap();
    if (!spec.from_path && spec.name.empty()) __builtin_trap();
  } catch (const tracebench::UsageError&) {
  }
  return 0;
}
