#pragma once
// Small text helpers shared by the writers and by the messages made from a
// program's output.

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace tracebench {

/// One number formatted with printf's `format` (e.g. "%.3f").
inline std::string printf_string(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

/// `text` with &, <, >, " and ' escaped for HTML.
inline std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

/// `value` printf-formatted for an HTML cell, or an en dash when it is not a
/// finite number (not measured).
inline std::string html_number(const char* format, double value) {
  return std::isfinite(value) ? printf_string(format, value) : "&ndash;";
}

/// `parts` with `separator` between them.
inline std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string joined;
  for (size_t i = 0; i < parts.size(); ++i) joined += (i ? separator : "") + parts[i];
  return joined;
}

/// The pieces of `text` between `separator`s; none for an empty text.
inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> pieces;
  if (text.empty()) return pieces;
  size_t start = 0;
  for (size_t end; (end = text.find(separator, start)) != std::string::npos; start = end + 1) {
    pieces.push_back(text.substr(start, end - start));
  }
  pieces.push_back(text.substr(start));
  return pieces;
}

/// `text` without leading and trailing blanks and newlines.
inline std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t\n");
  if (begin == std::string::npos) return "";
  const auto end = text.find_last_not_of(" \t\n");
  return text.substr(begin, end - begin + 1);
}

/// `text` followed (pad_right) or preceded (pad_left) by spaces up to `width`;
/// longer text is left whole.
inline std::string pad_right(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}
inline std::string pad_left(const std::string& text, size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

/// `text` up to its first newline (all of it if none): an error's message
/// without what follows it (a backtrace, a compiler's context).
inline std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

/// The last line of `text` that holds more than spaces, without its newline;
/// "" if there is none.
inline std::string last_nonempty_line(const std::string& text) {
  const size_t end = text.find_last_not_of("\n ");
  if (end == std::string::npos) return "";
  const size_t newline = text.rfind('\n', end);
  const size_t begin = newline == std::string::npos ? 0 : newline + 1;
  return text.substr(begin, end + 1 - begin);
}

}  // namespace tracebench
