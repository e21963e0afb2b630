#pragma once
// What the HTML report's charts share: coordinates as SVG text, and one
// colour per backend, the same in every chart of a report.

#include <string>
#include <vector>

namespace tracebench {

/// An SVG coordinate or length, one decimal.
std::string svg_number(double value);

/// The colour of `backend` by its place in `backends` (the report's order).
std::string backend_color(const std::vector<std::string>& backends, const std::string& backend);

}  // namespace tracebench
