#include "report/csv.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "report/report_file.h"
#include "report/row_schema.h"
#include "tracebench/error.h"
#include "util/text.h"

namespace tracebench {

namespace {

// RFC 4180: quote fields holding a comma, quote or newline.
std::string quoted(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string csv_record(const std::vector<std::string>& cells) {
  std::vector<std::string> fields;
  for (const auto& cell : cells) fields.push_back(quoted(cell));
  return join(fields, ",");
}

std::vector<std::string> csv_columns(bool accuracy) {
  std::vector<std::string> names;
  for (const auto& column : csv_layout(accuracy)) names.push_back(column.name);
  return names;
}

std::string csv_header(bool accuracy) { return join(csv_columns(accuracy), ","); }

std::string csv_line(const ResultRow& row, bool accuracy) {
  std::vector<std::string> cells;
  for (const auto& column : csv_layout(accuracy)) cells.push_back(column.field->to_text(row));
  return csv_record(cells);
}

std::string render_csv(const RunReport& report) {
  const bool accuracy = report.config.value("measure", "") == "accuracy";
  std::string text = csv_header(accuracy) + "\n";
  for (const auto& row : report.rows) text += csv_line(row, accuracy) + "\n";
  return text;
}

CsvWriter::CsvWriter(const std::string& path, bool accuracy, bool append)
    : path_(path), accuracy_(accuracy) {
  const int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (append ? 0 : O_TRUNC);
  fd_ = ::open(path.c_str(), flags, 0644);
  if (fd_ < 0) throw unwritable_report_file(path, kCsvReportFlag);
  struct stat info {};
  if (!append || (::fstat(fd_, &info) == 0 && info.st_size == 0)) {
    write_line(csv_header(accuracy_));
  }
}

CsvWriter::~CsvWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void CsvWriter::write(const ResultRow& row) { write_line(csv_line(row, accuracy_)); }

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
