#pragma once
// ResultRow <-> one line of JSON. The isolated child process hands its rows
// back to the parent this way (`--rows-to FILE`, one row per line), so every
// field, raw samples included, survives the trip unchanged.

#include <string>

#include "report/result_row.h"

namespace tracebench {

/// One row as a single-line JSON object (no trailing newline), in the JSON
/// report's row schema (report/json.h row_to_json): NaN becomes null.
std::string row_to_json_line(const ResultRow& row);

/// Parses what row_to_json_line wrote. Throws std::runtime_error on text that
/// is not such a row.
ResultRow row_from_json_line(const std::string& line);

}  // namespace tracebench
