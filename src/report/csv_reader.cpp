#include "report/csv_reader.h"

#include "report/csv.h"
#include "report/row_schema.h"
#include "tracebench/error.h"

namespace tracebench {

std::vector<std::vector<std::string>> parse_csv(std::string_view text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  size_t line = 1;
  size_t i = 0;
  const size_t n = text.size();
  auto error = [&](const std::string& what) {
    return CsvParseError("CSV line " + std::to_string(line) + ": " + what);
  };
  while (i < n) {
    // At the start of a field.
    if (text[i] == '"') {
      const size_t start_line = line;
      ++i;
      for (;;) {
        if (i >= n) {
          throw CsvParseError("CSV line " + std::to_string(start_line) +
                              ": quoted field is never closed");
        }
        const char c = text[i++];
        if (c == '"') {
          if (i < n && text[i] == '"') {
            field += '"';
            ++i;
          } else {
            break;
          }
        } else {
          if (c == '\n') ++line;
          field += c;
        }
      }
      if (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
        throw error("text after a closing quote");
      }
    } else {
      while (i < n && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
        if (text[i] == '"') throw error("quote inside an unquoted field");
        field += text[i++];
      }
    }
    // At the end of a field.
    record.push_back(std::move(field));
    field.clear();
    if (i >= n) break;
    if (text[i] == ',') {
      ++i;
      if (i >= n) record.emplace_back();  // "a," ends with an empty field
      continue;
    }
    if (text[i] == '\r') {
      ++i;
      if (i < n && text[i] != '\n') throw error("carriage return without a line feed");
    }
    if (i < n && text[i] == '\n') ++i;
    ++line;
    records.push_back(std::move(record));
    record.clear();
  }
  if (!record.empty()) records.push_back(std::move(record));
  return records;
}

std::vector<CsvRow> read_csv_rows(std::string_view text, bool accuracy) {
  const auto records = parse_csv(text);
  std::vector<CsvRow> rows;
  if (records.empty()) return rows;
  const auto columns = csv_columns(accuracy);
  if (records[0] != columns) {
    throw UsageError(std::string("the header of the --output CSV is not this tracebench's ") +
                     (accuracy ? "--accuracy" : "--performance") +
                     " header; --resume needs a file written by the same version and mode (or "
                     "drop --resume to start over)");
  }
  const auto layout = csv_layout(accuracy);
  for (size_t r = 1; r < records.size(); ++r) {
    const auto& cells = records[r];
    if (cells.size() == 1 && cells[0].empty()) continue;  // blank line
    if (cells.size() != columns.size()) {
      throw CsvParseError("CSV record " + std::to_string(r + 1) + " has " +
                          std::to_string(cells.size()) + " fields, not " +
                          std::to_string(columns.size()));
    }
    CsvRow read{cells, ResultRow{}};
    for (size_t c = 0; c < cells.size(); ++c) {
      if (layout[c].field->from_text) layout[c].field->from_text(read.row, cells[c]);
    }
    rows.push_back(std::move(read));
  }
  return rows;
}

}  // namespace tracebench
