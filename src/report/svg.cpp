#include "report/svg.h"

#include <algorithm>

#include "util/text.h"

namespace tracebench {

namespace {

constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                    "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};

}  // namespace

std::string svg_number(double value) { return html_number("%.1f", value); }

std::string backend_color(const std::vector<std::string>& backends, const std::string& backend) {
  const size_t index = std::find(backends.begin(), backends.end(), backend) - backends.begin();
  return kPalette[index % (sizeof kPalette / sizeof *kPalette)];
}

}  // namespace tracebench
