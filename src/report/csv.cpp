#include "report/csv.h"

#include "report/row_schema.h"
#include "util/text.h"

namespace tracebench {

namespace {

// RFC 4180: quote fields holding a comma, quote or newline.
std::string quoted(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string csv_record(const std::vector<std::string>& cells) {
  std::vector<std::string> fields;
  for (const auto& cell : cells) fields.push_back(quoted(cell));
  return join(fields, ",");
}

std::vector<std::string> csv_columns(bool accuracy) {
  std::vector<std::string> names;
  for (const auto& column : csv_layout(accuracy)) names.push_back(column.name);
  return names;
}

std::string csv_header(bool accuracy) { return join(csv_columns(accuracy), ","); }

std::string csv_line(const ResultRow& row, bool accuracy) {
  std::vector<std::string> cells;
  for (const auto& column : csv_layout(accuracy)) cells.push_back(column.field->to_text(row));
  return csv_record(cells);
}

std::string render_csv(const RunReport& report) {
  const bool accuracy = report.config.value("measure", "") == "accuracy";
  std::string text = csv_header(accuracy) + "\n";
  for (const auto& row : report.rows) text += csv_line(row, accuracy) + "\n";
  return text;
}

}  // namespace tracebench
