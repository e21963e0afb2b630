#include "report/csv.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

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

std::string join(const std::vector<std::string>& parts, char separator) {
  std::string joined;
  for (const auto& part : parts) joined += (joined.empty() ? "" : std::string(1, separator)) + part;
  return joined;
}

std::string our_columns(const ResultRow& row) {
  return number(row.ci_low, "%.6f") + "," + number(row.ci_high, "%.6f") + "," +
         number(row.mann_whitney_p, "%.6f") + "," + std::to_string(row.samples()) + "," +
         std::to_string(row.iterations_per_run) + "," + number(row.eager_peak_mem_mb, "%.6f") +
         "," + number(row.backend_peak_mem_mb, "%.6f") + "," +
         number(row.first_call_latency_s, "%.6f") + "," + field(join(row.warning_codes, ';'));
}

}  // namespace

std::string csv_header() {
  // Units as the dynamo runner's: abs_latency ms, compilation_latency s;
  // memory in MB; p_value is Welch's.
  return "dev,name,batch_size,speedup,abs_latency,compilation_latency,compression_ratio,"
         "backend,p_value,eager_latency,status,error,"
         "ci_low,ci_high,mann_whitney_p,samples,iterations_per_run,eager_peak_mem,"
         "backend_peak_mem,first_call_latency,warnings";
}

std::string csv_line(const ResultRow& row) {
  return field(row.device) + "," + field(row.model) + "," + std::to_string(row.batch_size) + "," +
         number(row.speedup, "%.6f") + "," + number(row.abs_latency_ms, "%.6f") + "," +
         number(row.compilation_latency_s, "%.6f") + "," + number(row.compression_ratio, "%.6f") +
         "," + field(row.backend) + "," + number(row.p_value, "%.6f") + "," +
         number(row.eager_latency_ms, "%.6f") + "," + field(row.status) + "," + field(row.error) +
         "," + our_columns(row);
}

std::string accuracy_csv_header() { return "dev,name,batch_size,accuracy,backend,detail"; }

std::string accuracy_csv_line(const ResultRow& row) {
  return field(row.device) + "," + field(row.model) + "," + std::to_string(row.batch_size) + "," +
         field(row.status) + "," + field(row.backend) + "," + field(row.error);
}

CsvWriter::CsvWriter(const std::string& path, bool accuracy, bool append)
    : path_(path), accuracy_(accuracy) {
  const int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (append ? 0 : O_TRUNC);
  fd_ = ::open(path.c_str(), flags, 0644);
  if (fd_ < 0) throw UsageError("cannot write " + path + "; choose a writable --output path");
  struct stat info {};
  if (!append || (::fstat(fd_, &info) == 0 && info.st_size == 0)) {
    write_line(accuracy_ ? accuracy_csv_header() : csv_header());
  }
}

CsvWriter::~CsvWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void CsvWriter::write(const ResultRow& row) {
  write_line(accuracy_ ? accuracy_csv_line(row) : csv_line(row));
}

void CsvWriter::write_line(const std::string& line) {
  // One write() per line: O_APPEND makes it land whole at the end of the file.
  const std::string text = line + "\n";
  ssize_t written;
  do {
    written = ::write(fd_, text.data(), text.size());
  } while (written < 0 && errno == EINTR);
  if (written != static_cast<ssize_t>(text.size())) {
    throw std::runtime_error("cannot write " + path_ + ": " +
                             (written < 0 ? std::strerror(errno) : "short write (disk full?)"));
  }
}

}  // namespace tracebench
