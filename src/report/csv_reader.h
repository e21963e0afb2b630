#pragma once
// Reading back the CSV that report/csv.cpp writes (for --resume): RFC 4180
// fields, quoted fields with "" escapes, commas and newlines inside quotes,
// LF or CRLF line ends.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

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

}  // namespace tracebench
