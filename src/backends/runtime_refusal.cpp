#include "backends/runtime_refusal.h"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace tracebench {

bool runtime_refuses_model(const std::string& message) {
  // The phrases OpenVINO's ONNX frontend and CPU plugin use for an op or an
  // attribute they do not cover (read from their libraries' messages, 2026.4).
  static const char* kRefusals[] = {"not supported", "unsupported", "not implemented",
                                    "no conversion rule found"};
  std::string lower;
  std::transform(message.begin(), message.end(), std::back_inserter(lower),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return std::any_of(std::begin(kRefusals), std::end(kRefusals),
                     [&](const char* refusal) { return lower.find(refusal) != std::string::npos; });
}

}  // namespace tracebench
