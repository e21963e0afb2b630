#include "report/report_file.h"

#include <cstdio>
#include <fstream>

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

}  // namespace tracebench
