#pragma once
// How every report file is written: whole, through a temporary file beside it
// renamed over it, so that a reader (a browser, a CI job, `compare`) never
// sees half a report and a failed write leaves the previous file; or, for a
// format written a line per row (the CSV), appended to as each row is
// measured. Both name the flag that named the file when they cannot write.

#include <string>

#include "tracebench/error.h"

namespace tracebench {

/// Writes `text` to `path` whole. Throws UsageError naming `--flag` (the
/// option that named the file) when it cannot.
void write_report_file(const std::string& path, const std::string& flag, const std::string& text);

/// The error for a report file that cannot be created: names the flag to fix.
UsageError unwritable_report_file(const std::string& path, const std::string& flag);

/// A report file that grows a line per row: its header, then each row's line
/// as the row is measured, with a single write() (O_APPEND), so that a run
/// killed midway (even by SIGKILL) leaves every finished row and never half a
/// line.
class LineReportFile {
 public:
  /// Truncates `path` and writes `header`; with `append` (--resume), keeps
  /// what is there and writes the header only into an empty file. Throws
  /// UsageError naming `--flag` if `path` cannot be opened for writing.
  LineReportFile(const std::string& path, const std::string& flag, const std::string& header,
                 bool append);
  ~LineReportFile();
  LineReportFile(const LineReportFile&) = delete;
  LineReportFile& operator=(const LineReportFile&) = delete;
  void append_line(const std::string& line);

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace tracebench
