#pragma once
// The CSV report: the dynamo runner's leading columns, then tracebench's own,
// as report/row_schema.h lists them.

#include <string>
#include <vector>

#include "report/json.h"
#include "report/result_row.h"

namespace tracebench {

/// The flag of the CSV report (--output), which --resume reads back.
inline constexpr const char* kCsvReportFlag = "output";

/// The column names: "dev,name,batch_size,speedup,abs_latency,..." or, for
/// `accuracy`, the dynamo runner's "dev,name,batch_size,accuracy,backend,detail".
std::vector<std::string> csv_columns(bool accuracy = false);
std::string csv_header(bool accuracy = false);

/// One row in the header's column order (no trailing newline).
std::string csv_line(const ResultRow& row, bool accuracy = false);

/// Cells joined into one CSV record, quoted where RFC 4180 needs it.
std::string csv_record(const std::vector<std::string>& cells);

/// The whole report as a run's CSV holds it: the header, then a line per row;
/// the accuracy layout when the report's config says it measured accuracy.
std::string render_csv(const RunReport& report);

}  // namespace tracebench
