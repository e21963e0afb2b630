#include "orchestration/resume.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "report/csv.h"
#include "report/csv_reader.h"
#include "report/report_file.h"
#include "tracebench/error.h"

namespace tracebench {

std::vector<std::string> ResumeState::missing_backends(
    const std::string& model, std::optional<int64_t> batch_size, int64_t threads,
    const std::string& allocator, const std::vector<std::string>& backends) const {
  std::vector<std::string> missing;
  for (const auto& backend : backends) {
    const bool done = std::any_of(rows.begin(), rows.end(), [&](const ResultRow& row) {
      return row.model == model && row.backend == backend &&
             (!batch_size || row.batch_size == *batch_size) &&
             (row.threads == 0 || row.threads == threads) && row.allocator == allocator;
    });
    if (!done) missing.push_back(backend);
  }
  return missing;
}

bool retried_on_resume(const std::string& status) {
  return status == status::kCrash || status == status::kTimeout || status == status::kOom ||
         status == status::kModelFailToLoad;
}

namespace {

// Replaces the CSV with its header and the kept records, cells as they were
// written, as every report file is written whole (report/report_file.h): a
// crash here leaves the old file or the new one, never a mix.
void rewrite_csv(const std::string& csv_path, const std::vector<CsvRow>& kept, bool accuracy) {
  std::string text = csv_header(accuracy) + "\n";
  for (const auto& record : kept) text += csv_record(record.cells) + "\n";
  write_report_file(csv_path, kCsvReportFlag, text);
}

}  // namespace

ResumeState prepare_resume(const std::string& csv_path, bool accuracy, std::ostream& err) {
  if (csv_path.empty()) {
    throw UsageError("--resume needs --output FILE: the CSV of the run to finish");
  }
  ResumeState state;
  std::error_code missing;
  if (!std::filesystem::exists(csv_path, missing)) return state;
  std::ifstream in(csv_path, std::ios::binary);
  if (!in) throw UsageError("cannot read " + csv_path + " to --resume; check its permissions");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!text.empty() && text.back() != '\n') {
    // A line cut off midway: drop it so that appended rows start on a line of their own.
    const size_t keep = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
    err << "tracebench: --resume: dropping an incomplete last line of " << csv_path << std::endl;
    text.resize(keep);
    std::filesystem::resize_file(csv_path, keep);
  }
  std::vector<CsvRow> records;
  try {
    records = read_csv_rows(text, accuracy);
  } catch (const CsvParseError& error) {
    throw UsageError(csv_path + " is not a readable CSV (" + error.what() +
                     "); fix or remove it, or drop --resume");
  }
  const size_t read = records.size();
  records.erase(
      std::remove_if(records.begin(), records.end(),
                     [](const CsvRow& record) { return retried_on_resume(record.row.status); }),
      records.end());
  if (records.size() != read) rewrite_csv(csv_path, records, accuracy);
  for (auto& record : records) state.rows.push_back(std::move(record.row));
  if (read > 0) {
    err << "tracebench: --resume: " << state.rows.size() << " rows already in " << csv_path
        << (state.rows.size() != read
                ? " (" + std::to_string(read - state.rows.size()) +
                      " crash / timeout / OOM / load-failure rows will run again)"
                : std::string())
        << "; running the rest" << std::endl;
  }
  return state;
}

}  // namespace tracebench
