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

/// Writes the header (performance or accuracy columns), then appends each row
/// as it is measured with a single write() (O_APPEND), so a run killed midway
/// (even by SIGKILL) leaves every finished row and never half a line.
class CsvWriter {
 public:
  /// Truncates `path` and writes the header; with `append`, keeps what is
  /// there and writes the header only into an empty file. Throws UsageError
  /// if `path` cannot be opened for writing.
  CsvWriter(const std::string& path, bool accuracy, bool append = false);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  void write(const ResultRow& row);

 private:
  void write_line(const std::string& line);
  std::string path_;
  bool accuracy_;
  int fd_ = -1;
};

}  // namespace tracebench
