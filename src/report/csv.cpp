#include "report/csv.h"

#include <cmath>
#include <cstdio>

#include "tracebench/error.h"

namespace tracebench {

namespace {

std::string number(double value, const char* format) {
  if (std::isnan(value)) return "";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

// RFC 4180: quote fields holding a comma, quote or newline.
std::string field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string csv_header() {
  // compression_ratio stays empty until peak memory is measured.
  return "dev,name,batch_size,speedup,abs_latency,compilation_latency,compression_ratio,"
         "backend,p_value,eager_latency,status,error";
}

std::string csv_line(const ResultRow& row) {
  return field(row.device) + "," + field(row.model) + "," + std::to_string(row.batch_size) + "," +
         number(row.speedup, "%.6f") + "," + number(row.abs_latency_ms, "%.6f") + "," +
         number(row.compilation_latency_s, "%.6f") + "," + "," + field(row.backend) + "," +
         number(row.p_value, "%.6f") + "," + number(row.eager_latency_ms, "%.6f") + "," +
         field(row.status) + "," + field(row.error);
}

std::string accuracy_csv_header() { return "dev,name,batch_size,accuracy,backend,detail"; }

std::string accuracy_csv_line(const ResultRow& row) {
  return field(row.device) + "," + field(row.model) + "," + std::to_string(row.batch_size) + "," +
         field(row.status) + "," + field(row.backend) + "," + field(row.error);
}

CsvWriter::CsvWriter(const std::string& path, bool accuracy)
    : out_(path, std::ios::trunc), accuracy_(accuracy) {
  if (!out_) throw UsageError("cannot write " + path + "; choose a writable --output path");
  out_ << (accuracy_ ? accuracy_csv_header() : csv_header()) << "\n" << std::flush;
}

void CsvWriter::write(const ResultRow& row) {
  out_ << (accuracy_ ? accuracy_csv_line(row) : csv_line(row)) << "\n" << std::flush;
}

}  // namespace tracebench
