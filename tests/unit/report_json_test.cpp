// The JSON report: structure (golden keys), round trip, atomic writes, and
// one-line errors for files that are not ours.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

#include "report/json.h"
#include "report/report_file.h"
#include "report/row_schema.h"
#include "sample_rows.h"
#include "test_paths.h"
#include "tracebench/error.h"

namespace tracebench {
namespace {

using testing::sample_row;

std::string temp_path(const std::string& name) { return testing::process_temp_path(name).string(); }

TEST(JsonReport, GoldenStructure) {
  RunReport report;
  report.rows = {sample_row()};
  const auto json = report_to_json(report);
  EXPECT_EQ(json["schema"], "tracebench-results");
  EXPECT_EQ(json["schema_version"], 1);
  for (const char* key : {"environment", "config", "rows"}) EXPECT_TRUE(json.contains(key)) << key;
  // A row holds every field of the schema (report/row_schema.h), by its key.
  std::set<std::string> keys, schema_keys;
  for (const auto& [key, value] : json["rows"][0].items()) keys.insert(key);
  for (const auto& field : row_fields()) schema_keys.insert(field.json_key);
  EXPECT_EQ(keys, schema_keys);
  EXPECT_EQ(json["rows"][0]["samples"], 2);
  EXPECT_EQ(json["rows"][0]["warnings"][0]["code"], "high_cv");
}

TEST(JsonReport, RoundTripKeepsEverythingAndNanBecomesNull) {
  RunReport report;
  report.environment.cpu_model = "Test CPU";
  report.environment.blas_libraries = {"/lib/libblas.so.3"};
  report.environment.openblas_threads = 1;
  auto failed = sample_row();
  failed.status = status::kFailToRun;
  failed.speedup = 0;
  failed.ci_low = failed.ci_high = std::nan("");
  report.rows = {sample_row(), failed};
  const auto json = report_to_json(report);
  EXPECT_TRUE(json["rows"][1]["ci_low"].is_null());
  const auto back = report_from_json(json, "x.json");
  EXPECT_EQ(back.environment.cpu_model, "Test CPU");
  EXPECT_EQ(back.environment.blas_libraries, report.environment.blas_libraries);
  EXPECT_EQ(back.environment.openblas_threads, 1);
  ASSERT_EQ(back.rows.size(), 2u);
  EXPECT_EQ(row_to_json(back.rows[0]), row_to_json(report.rows[0]));
  EXPECT_TRUE(std::isnan(back.rows[1].ci_low));
  EXPECT_EQ(back.rows[1].status, "fail_to_run");
}

// Outputs identical to float32's have an infinite SQNR: JSON has no number
// for it, so it is "inf", and reads back as infinity, not as "not measured".
TEST(JsonReport, AnInfiniteSqnrRoundTripsAsInf) {
  RunReport report;
  auto identical = sample_row();
  identical.ran_precision = "bf16";
  identical.sqnr_db = std::numeric_limits<double>::infinity();
  report.rows = {identical};
  const auto json = report_to_json(report);
  EXPECT_EQ(json["rows"][0]["sqnr_db"], "inf");
  const auto back = report_from_json(json, "x.json");
  ASSERT_EQ(back.rows.size(), 1u);
  EXPECT_TRUE(std::isinf(back.rows[0].sqnr_db) && back.rows[0].sqnr_db > 0);
}

// A report written before the config recorded the threads a run without
// --threads computed with has null there; it reads back with the count its
// environment recorded, so `compare` matches it with a newer report.
TEST(JsonReport, AnOlderConfigsUnrecordedThreadsAreTheEnvironments) {
  RunReport report;
  report.environment.torch_threads = 2;
  report.config = {{"threads", nullptr}, {"batch_size", nullptr}};
  const auto back = report_from_json(report_to_json(report), "old.json");
  EXPECT_EQ(back.config["threads"], 2);
  EXPECT_TRUE(back.config["batch_size"].is_null());  // each model's own: nothing to fill in
  report.config["threads"] = {1, 2};                 // a sweep keeps its list
  EXPECT_EQ(report_from_json(report_to_json(report), "sweep.json").config["threads"],
            nlohmann::json({1, 2}));
}

TEST(JsonReport, AtomicWriteThenRead) {
  const auto path = temp_path("tracebench-json-test.json");
  RunReport report;
  report.rows = {sample_row()};
  write_report_file(path, "json", render_json(report));
  report.rows.push_back(sample_row());
  write_report_file(path, "json", render_json(report));  // replaces, never appends
  EXPECT_EQ(read_report(path).rows.size(), 2u);
  for (const auto& entry : std::filesystem::directory_iterator(testing::process_temp_path(""))) {
    const auto name = entry.path().filename().string();
    EXPECT_FALSE(name.rfind("tracebench-json-test.json.", 0) == 0 && name.size() > 4 &&
                 name.compare(name.size() - 4, 4, ".tmp") == 0)
        << name << " left behind";
  }
  std::filesystem::remove(path);
}

void expect_usage_error(const std::string& content, const std::string& fragment) {
  const auto path = temp_path("tracebench-bad.json");
  std::ofstream(path) << content;
  try {
    read_report(path);
    FAIL() << "no error for " << content;
  } catch (const UsageError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(JsonReport, BadFilesGiveOneLineErrors) {
  expect_usage_error("{\"schema\": \"tracebench-results\", \"rows\": [",
                     "not valid JSON (truncated?");
  expect_usage_error("{\"hello\": 1}", "not a tracebench results file");
  expect_usage_error("{\"schema\": \"tracebench-results\", \"schema_version\": 99}",
                     "schema_version 99");
  expect_usage_error(
      "{\"schema\": \"tracebench-results\", \"schema_version\": 1, \"environment\": {}, "
      "\"rows\": [{\"model\": 3}]}",
      "malformed field");
  EXPECT_THROW(read_report("/no/such/file.json"), UsageError);
}

}  // namespace
}  // namespace tracebench
