#include "report/row_json.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "report/json.h"

namespace tracebench {

// The JSON report's row schema (report/json.h), one row per line, so that a
// field added there travels between processes too.

std::string row_to_json_line(const ResultRow& row) {
  // Replace, not throw, on invalid UTF-8 in an error message.
  return row_to_json(row).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

ResultRow row_from_json_line(const std::string& line) {
  try {
    const auto object = nlohmann::json::parse(line);
    if (!object.is_object()) throw std::runtime_error("not a JSON object");
    return row_from_json(object);
  } catch (const std::exception& error) {
    throw std::runtime_error(std::string("bad row line: ") + error.what());
  }
}

}  // namespace tracebench
