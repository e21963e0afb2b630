#pragma once
// The CSV report: the dynamo runner's leading columns, then tracebench's own.

#include <fstream>
#include <string>

#include "report/result_row.h"

namespace tracebench {

/// "dev,name,batch_size,speedup,abs_latency,compilation_latency,compression_ratio,..."
std::string csv_header();

/// One row in the header's column order (no trailing newline).
std::string csv_line(const ResultRow& row);

/// Accuracy mode's CSV: "dev,name,batch_size,accuracy,backend,detail".
std::string accuracy_csv_header();
std::string accuracy_csv_line(const ResultRow& row);

/// Writes the header, then appends and flushes each row as it is measured, so
/// a run that dies midway keeps every row finished before.
class CsvWriter {
 public:
  /// Throws UsageError if `path` cannot be opened for writing.
  CsvWriter(const std::string& path, bool accuracy);
  void write(const ResultRow& row);

 private:
  std::ofstream out_;
  bool accuracy_;
};

}  // namespace tracebench
