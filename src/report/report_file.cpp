#include "report/report_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "util/files.h"

namespace tracebench {

UsageError unwritable_report_file(const std::string& path, const std::string& flag) {
  return UsageError("cannot write " + path + "; choose a writable --" + flag + " path");
}

void write_report_file(const std::string& path, const std::string& flag, const std::string& text) {
  const std::string temporary = partial_path_beside(path).string();
  {
    std::ofstream out(temporary, std::ios::trunc);
    if (!out) throw unwritable_report_file(path, flag);
    out << text;
    out.flush();
    if (!out) {
      out.close();
      std::remove(temporary.c_str());
      throw UsageError("could not finish writing " + path + " (disk full?)");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw unwritable_report_file(path, flag);
  }
}

LineReportFile::LineReportFile(const std::string& path, const std::string& flag,
                               const std::string& header, bool append)
    : path_(path) {
  const int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (append ? 0 : O_TRUNC);
  fd_ = ::open(path.c_str(), flags, 0644);
  if (fd_ < 0) throw unwritable_report_file(path, flag);
  struct stat info {};
  if (!append || (::fstat(fd_, &info) == 0 && info.st_size == 0)) append_line(header);
}

LineReportFile::~LineReportFile() {
  if (fd_ >= 0) ::close(fd_);
}

void LineReportFile::append_line(const std::string& line) {
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
