#include "expected_rows.h"

#include <gtest/gtest.h>
#include <torch/version.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "backends/registry.h"
#include "report/csv.h"
#include "report/csv_reader.h"
#include "test_paths.h"
#include "util/files.h"
#include "util/subprocess.h"
#include "util/text.h"

namespace tracebench::testing {

namespace {

const char* kTable = "tests/corpus/expected_rows.csv";

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The records of a CSV whose first record names the columns, as
// column -> value maps; lines starting with '#' are comments.
std::vector<std::map<std::string, std::string>> records_of(const std::string& text) {
  std::string data;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] != '#') data += line + "\n";
  }
  const auto records = parse_csv(data);
  std::vector<std::map<std::string, std::string>> rows;
  for (size_t i = 1; i < records.size(); ++i) {
    std::map<std::string, std::string> row;
    for (size_t column = 0; column < records[0].size() && column < records[i].size(); ++column) {
      row[records[0][column]] = records[i][column];
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

struct Mode {
  std::vector<std::string> args;
  const char* csv_name;
  const char* status_column;
  const char* detail_column;
};

Mode mode_named(const std::string& mode) {
  if (mode == "performance") {
    // Two evaluation sets: each row below float32 still runs the scoring
    // path on every model, at an eighth of the default's cost.
    return {{"--performance", "-n", "3", "--warmup", "1", "--eval-inputs", "2"},
            "performance.csv",
            "status",
            "error"};
  }
  return {{"--accuracy", "--eval-inputs", "2"}, "accuracy.csv", "accuracy", "detail"};
}

// What one run showed, for `make record-expected-rows`: a file per model and
// mode, so that ctest's parallel tests never write the same one.
void write_observed_rows(const std::string& model, const std::string& mode,
                         const std::map<std::string, std::pair<std::string, std::string>>& rows) {
  const std::filesystem::path dir = "observed-rows";
  std::filesystem::create_directories(dir);
  std::ofstream out(dir / (file_name_part(model) + "." + mode + ".csv"), std::ios::trunc);
  out << csv_record({"model", "backend", "build", "mode", "status", "detail"}) << "\n";
  for (const auto& [backend, row] : rows) {
    out << csv_record({model, backend, this_build(), mode, row.first, row.second}) << "\n";
  }
}

}  // namespace

std::string this_build() { return TORCH_VERSION_MAJOR >= 2 ? "2.x" : "1.13"; }

std::map<std::pair<std::string, std::string>, ExpectedRow> expected_rows() {
  std::map<std::pair<std::string, std::string>, ExpectedRow> table;
  for (auto& row : records_of(read_file(source_path(kTable)))) {
    if (row["build"] != this_build()) continue;
    table[{row["model"], row["backend"]}] = {row["performance"], row["accuracy"], row["reason"],
                                             row["note"]};
  }
  return table;
}

void expect_rows_as_in_the_table(const std::string& model, const std::string& only,
                                 const std::string& mode_name) {
  const auto table = expected_rows();
  // Every backend but the ones the table skips: one without a line runs too,
  // so that its row is recorded, and fails below.
  std::vector<std::string> backends, skipped;
  for (const auto& backend : backend_names()) {
    const auto entry = table.find({model, backend});
    if (entry == table.end() || entry->second.status_in(mode_name) != kSkipped) {
      backends.push_back(backend);
    } else {
      skipped.push_back(backend);
    }
  }
  const Mode mode = mode_named(mode_name);
  const auto csv = process_temp_path(mode.csv_name);
  // ctest runs these two at a time on CI's two cores, where spinning OpenMP
  // workers starve each other (lazy_trace_everytime's compile of
  // mobilevit_xxs beside a two-thread load: 16 s spinning, 1.7 s passive; on
  // CI it ran past the timeout). These tests check rows, not speed.
  std::vector<std::string> args = {tracebench_binary(),
                                   "--backend=" + join(backends, ","),
                                   "--only=" + only,
                                   "--output",
                                   csv.string(),
                                   "--timeout",
                                   "240",
                                   "--omp-wait",
                                   "passive"};
  // auto leaves out what the table skips for its time (aot_inductor's 20-30 s
  // compile on 2.x, which auto spent on every model though its own row ran on
  // a few): auto is checked over the candidates whose rows run beside it.
  if (!skipped.empty()) args.push_back("--auto-skip=" + join(skipped, ","));
  args.insert(args.end(), mode.args.begin(), mode.args.end());
  const auto result = run_command(args);
  // 2: the model did not load, which exits as bad input does, its rows
  // written all the same (checked against the table below).
  ASSERT_TRUE(result.exit_code == 0 || result.exit_code == 2) << result.output;

  std::map<std::string, std::pair<std::string, std::string>> rows;  // backend -> status, detail
  for (auto& row : records_of(read_file(csv))) {
    rows[row["backend"]] = {row[mode.status_column], row[mode.detail_column]};
  }
  write_observed_rows(model, mode_name, rows);
  const std::string rerecord = "(make record-expected-rows writes what this run saw)";
  for (const auto& backend : backends) {
    const auto it = rows.find(backend);
    ASSERT_NE(it, rows.end()) << "no row for " << backend << "\n" << result.output;
    const auto& [status, detail] = it->second;
    const auto line = table.find({model, backend});
    if (line == table.end()) {
      ADD_FAILURE() << model << " x " << backend << " has no line for build " << this_build()
                    << " in " << kTable << "; it gave " << status << " " << rerecord;
      continue;
    }
    const auto& expected = line->second;
    const std::string where = model + " x " + backend + " (" + mode_name + ", build " +
                              this_build() + "): " + detail + "\n(the table's line: " + kTable +
                              "; its note: " + expected.note + ")";
    // A cell may name alternatives ("pass|fail_accuracy") where its note says why.
    const auto allowed = split(expected.status_in(mode_name), '|');
    EXPECT_NE(std::find(allowed.begin(), allowed.end(), status), allowed.end())
        << status << " is not " << join(allowed, " or ") << ": " << where;
    if (status == "pass") continue;
    // The same status for another reason is another failure: the row must
    // give the error the table pins.
    if (expected.reason.empty()) {
      ADD_FAILURE() << status << " pins no reason in the table: " << where << " " << rerecord;
    } else {
      // Alternatives ("a|b") where the two modes word the failure differently.
      const auto reasons = split(expected.reason, '|');
      EXPECT_TRUE(std::any_of(
          reasons.begin(), reasons.end(),
          [&](const std::string& reason) { return detail.find(reason) != std::string::npos; }))
          << status << " without the table's reason \"" << expected.reason << "\": " << where;
    }
  }
}

}  // namespace tracebench::testing
