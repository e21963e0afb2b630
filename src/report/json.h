#pragma once
// The JSON report: schema-versioned, every raw sample, the environment and the
// effective configuration. `report`, `compare` and `merge` read it back.

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "measure/environment.h"
#include "report/result_row.h"

namespace tracebench {

/// "schema": kJsonSchemaName, "schema_version": kJsonSchemaVersion. Bump the
/// version when a field changes meaning or disappears (adding one is fine).
inline constexpr const char* kJsonSchemaName = "tracebench-results";
inline constexpr int kJsonSchemaVersion = 1;

struct RunReport {
  Environment environment;
  nlohmann::json config = nlohmann::json::object();  // the effective options
  std::vector<ResultRow> rows;
};

nlohmann::json environment_to_json(const Environment& environment);
Environment environment_from_json(const nlohmann::json& json);

/// NaN numbers become null and come back as NaN.
nlohmann::json row_to_json(const ResultRow& row);

/// The report's backends in the order their first rows appear.
std::vector<std::string> backends_in_order(const RunReport& report);
ResultRow row_from_json(const nlohmann::json& json);

nlohmann::json report_to_json(const RunReport& report);
/// Throws UsageError naming `origin` if the schema name or version is wrong or
/// a field has the wrong type.
RunReport report_from_json(const nlohmann::json& json, const std::string& origin);

/// The JSON report file's text: report_to_json, indented, with a final newline.
std::string render_json(const RunReport& report);

/// Reads a report file. Throws UsageError with a one-line message for a
/// missing, truncated or wrong-schema file.
RunReport read_report(const std::string& path);

}  // namespace tracebench
