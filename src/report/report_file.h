#pragma once
// How every report file is written: whole, through a temporary file beside it
// renamed over it, so that a reader (a browser, a CI job, `compare`) never
// sees half a report and a failed write leaves the previous file. The CSV of
// a run is the one file appended to instead, a line per row (report/csv.h);
// its errors read the same.

#include <string>

#include "tracebench/error.h"

namespace tracebench {

/// Writes `text` to `path` whole. Throws UsageError naming `--flag` (the
/// option that named the file) when it cannot.
void write_report_file(const std::string& path, const std::string& flag, const std::string& text);

/// The error for a report file that cannot be created: names the flag to fix.
UsageError unwritable_report_file(const std::string& path, const std::string& flag);

}  // namespace tracebench
