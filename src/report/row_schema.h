#pragma once
// ResultRow described once. Every field a report shows is one entry of
// row_fields(): its CSV column, JSON key, unit and HTML heading, and how it is
// written and read back. The CSV writer and reader (--resume), the JSON writer
// and reader (report, compare, merge, the isolated child's rows) and the HTML
// results table all iterate this table, so a new column is one entry here plus
// the code that computes it.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/result_row.h"

namespace tracebench {

struct RowField {
  const char* csv_column;    // nullptr: not a CSV column (raw samples, counters)
  const char* json_key;      // every field is in the JSON
  const char* unit;          // "ms", "s", "MB", "x" or "" (counts, labels)
  const char* html_heading;  // nullptr: not in the HTML results table

  /// The CSV cell ("" when not measured, as for NaN).
  std::function<std::string(const ResultRow&)> to_text;
  /// Reads a CSV cell back; empty for a field derived from others (samples).
  std::function<void(ResultRow&, const std::string&)> from_text;
  std::function<nlohmann::json(const ResultRow&)> to_json;
  /// Reads a present, non-null JSON value back; empty as for from_text.
  std::function<void(ResultRow&, const nlohmann::json&)> from_json;
  /// The HTML cell of a passing row; empty when html_heading is nullptr.
  std::function<std::string(const ResultRow&)> to_html;
};

/// In CSV column order: the dynamo runner's leading columns first, unchanged
/// (dev,name,batch_size,speedup,abs_latency,compilation_latency,
/// compression_ratio,backend,p_value,eager_latency,status,error), then
/// tracebench's own, then the JSON-only fields.
const std::vector<RowField>& row_fields();

/// A CSV column: its header and the row field it holds.
struct CsvColumn {
  const char* name;
  const RowField* field;
};

/// The performance CSV's columns (every field with a csv_column, in order) or,
/// for `accuracy`, the dynamo runner's accuracy layout:
/// dev,name,batch_size,accuracy (the status),backend,detail (the error).
std::vector<CsvColumn> csv_layout(bool accuracy);

/// The row field with this JSON key. Throws std::logic_error if there is none.
const RowField& row_field(const std::string& json_key);

}  // namespace tracebench
