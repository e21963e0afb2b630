#pragma once
// Reading back the CSV that report/csv.cpp writes (for --resume): RFC 4180
// fields, quoted fields with "" escapes, commas and newlines inside quotes,
// LF or CRLF line ends; each record's cells read into a row through
// report/row_schema.h.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "report/result_row.h"

namespace tracebench {

/// A malformed CSV text: an unterminated quoted field or a quote inside an
/// unquoted field. what() names the line.
class CsvParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Every record of `text`, each a list of fields. A final line without a
/// newline is a record; an empty text has none. Throws CsvParseError.
std::vector<std::vector<std::string>> parse_csv(std::string_view text);

/// One record of a tracebench CSV: its cells as written, and the row they hold
/// (every CSV column; no raw samples, warning codes without their messages).
struct CsvRow {
  std::vector<std::string> cells;
  ResultRow row;
};

/// The records of a CSV text as a run writes it (--output; accuracy mode's
/// columns when `accuracy`), blank lines skipped. Throws CsvParseError for text that
/// is not CSV or a record of the wrong width, and UsageError for a header
/// other than csv_header(accuracy).
std::vector<CsvRow> read_csv_rows(std::string_view text, bool accuracy = false);

}  // namespace tracebench
