#pragma once
// Small text helpers shared by the console and compare writers.

#include <cstdio>
#include <string>

namespace tracebench {

/// One number formatted with printf's `format` (e.g. "%.3f").
inline std::string printf_string(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

/// `text` followed (pad_right) or preceded (pad_left) by spaces up to `width`;
/// longer text is left whole.
inline std::string pad_right(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}
inline std::string pad_left(const std::string& text, size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

}  // namespace tracebench
