#include "runner/resume.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

#include "report/csv.h"
#include "report/csv_reader.h"
#include "tracebench/error.h"

namespace tracebench {

namespace {

double number_or(const std::string& text, double fallback) {
  if (text.empty()) return fallback;
  try {
    size_t used = 0;
    const double value = std::stod(text, &used);
    return used == text.size() ? value : fallback;
  } catch (const std::exception&) {
    return fallback;
  }
}

std::vector<std::string> split_header(const std::string& header) {
  std::vector<std::string> names;
  std::istringstream in(header);
  for (std::string name; std::getline(in, name, ',');) names.push_back(name);
  return names;
}

}  // namespace

std::vector<std::string> ResumeState::missing_backends(
    const std::string& model, const std::vector<std::string>& backends) const {
  std::vector<std::string> missing;
  for (const auto& backend : backends) {
    if (!done.count({model, backend})) missing.push_back(backend);
  }
  return missing;
}

std::vector<ResultRow> rows_from_csv(const std::string& text, bool accuracy) {
  const auto records = parse_csv(text);
  std::vector<ResultRow> rows;
  if (records.empty()) return rows;
  const auto expected = split_header(accuracy ? accuracy_csv_header() : csv_header());
  if (records[0] != expected) {
    throw UsageError(std::string("the header of the --output CSV is not this tracebench's ") +
                     (accuracy ? "--accuracy" : "--performance") +
                     " header; --resume needs a file written by the same version and mode (or "
                     "drop --resume to start over)");
  }
  auto column = [&](const char* name) {
    for (size_t i = 0; i < expected.size(); ++i) {
      if (expected[i] == name) return i;
    }
    return expected.size();
  };
  const size_t dev = column("dev"), name = column("name"), batch = column("batch_size"),
               speedup = column("speedup"), latency = column("abs_latency"),
               compile = column("compilation_latency"), backend = column("backend"),
               p_value = column("p_value"), eager = column("eager_latency"),
               status = column(accuracy ? "accuracy" : "status"),
               error = column(accuracy ? "detail" : "error");
  for (size_t r = 1; r < records.size(); ++r) {
    const auto& fields = records[r];
    if (fields.size() == 1 && fields[0].empty()) continue;  // blank line
    if (fields.size() != expected.size()) {
      throw CsvParseError("CSV record " + std::to_string(r + 1) + " has " +
                          std::to_string(fields.size()) + " fields, not " +
                          std::to_string(expected.size()));
    }
    auto get = [&](size_t i) -> const std::string& {
      static const std::string kEmpty;
      return i < fields.size() ? fields[i] : kEmpty;
    };
    ResultRow row;
    row.device = get(dev);
    row.model = get(name);
    row.backend = get(backend);
    const double batch_size = number_or(get(batch), 0);
    row.batch_size = batch_size >= 0 && batch_size < 9e18 ? static_cast<int64_t>(batch_size) : 0;
    row.speedup = number_or(get(speedup), 0);
    row.abs_latency_ms = number_or(get(latency), 0);
    row.compilation_latency_s = number_or(get(compile), 0);
    row.p_value = number_or(get(p_value), std::numeric_limits<double>::quiet_NaN());
    row.eager_latency_ms = number_or(get(eager), 0);
    row.status = get(status);
    row.error = get(error);
    rows.push_back(std::move(row));
  }
  return rows;
}

bool retried_on_resume(const std::string& status) {
  return status == status::kCrash || status == status::kTimeout || status == status::kOom ||
         status == status::kModelFailToLoad;
}

namespace {

// Replaces the CSV with its header and `rows`: a temporary file renamed over
// it, so a crash here leaves the old file or the new one, never a mix.
void rewrite_csv(const std::string& csv_path, const std::vector<ResultRow>& rows, bool accuracy) {
  const std::string temporary = csv_path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << (accuracy ? accuracy_csv_header() : csv_header()) << "\n";
    for (const auto& row : rows) out << (accuracy ? accuracy_csv_line(row) : csv_line(row)) << "\n";
    if (!out) throw UsageError("cannot rewrite " + csv_path + " for --resume; check the disk");
  }
  std::filesystem::rename(temporary, csv_path);
}

}  // namespace

ResumeState prepare_resume(const std::string& csv_path, bool accuracy) {
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
    std::cerr << "tracebench: --resume: dropping an incomplete last line of " << csv_path
              << std::endl;
    text.resize(keep);
    std::filesystem::resize_file(csv_path, keep);
  }
  try {
    state.rows = rows_from_csv(text, accuracy);
  } catch (const CsvParseError& error) {
    throw UsageError(csv_path + " is not a readable CSV (" + error.what() +
                     "); fix or remove it, or drop --resume");
  }
  const size_t read = state.rows.size();
  state.rows.erase(std::remove_if(state.rows.begin(), state.rows.end(),
                                  [](const ResultRow& row) { return retried_on_resume(row.status); }),
                   state.rows.end());
  if (state.rows.size() != read) rewrite_csv(csv_path, state.rows, accuracy);
  for (const auto& row : state.rows) state.done.insert({row.model, row.backend});
  if (read > 0) {
    std::cerr << "tracebench: --resume: " << state.rows.size() << " rows already in " << csv_path
              << (state.rows.size() != read
                      ? " (" + std::to_string(read - state.rows.size()) +
                            " crash / timeout / OOM / load-failure rows will run again)"
                      : std::string())
              << "; running the rest" << std::endl;
  }
  return state;
}

}  // namespace tracebench
