// The row schema (report/row_schema.h) is the one description of a row that
// every writer and reader iterates: each field survives the JSON and the CSV
// and back, keys and columns are unique, and the dynamo columns lead.

#include <gtest/gtest.h>

#include <set>

#include "report/csv.h"
#include "report/csv_reader.h"
#include "report/json.h"
#include "report/row_schema.h"
#include "sample_rows.h"

namespace tracebench {
namespace {

TEST(RowSchema, SampleRowSetsEveryField) {
  // So that the round trips below cover a field the day it is added.
  const ResultRow sample = testing::sample_row(), blank;
  for (const auto& field : row_fields()) {
    // It is a passing CPU row: those two keep their defaults.
    if (field.json_key == std::string("status") || field.json_key == std::string("device"))
      continue;
    // Its two samples resolve p50 only (Percentiles tests cover the others).
    if (field.json_key == std::string("p90_latency") ||
        field.json_key == std::string("p99_latency") ||
        field.json_key == std::string("p999_latency"))
      continue;
    EXPECT_NE(field.to_json(sample), field.to_json(blank))
        << field.json_key << ": give it a non-default value in tests/support/sample_rows.h";
  }
}

TEST(RowSchema, KeysAndColumnsAreUniqueAndComplete) {
  std::set<std::string> keys, columns;
  for (const auto& field : row_fields()) {
    EXPECT_TRUE(keys.insert(field.json_key).second) << field.json_key;
    if (field.csv_column) {
      EXPECT_TRUE(columns.insert(field.csv_column).second) << field.csv_column;
    }
    EXPECT_TRUE(field.to_json) << field.json_key;
    EXPECT_EQ(bool(field.csv_column), bool(field.to_text)) << field.json_key;
    EXPECT_EQ(bool(field.html_heading), bool(field.to_html)) << field.json_key;
  }
  const std::vector<std::string> dynamo = {"dev",
                                           "name",
                                           "batch_size",
                                           "speedup",
                                           "abs_latency",
                                           "compilation_latency",
                                           "compression_ratio",
                                           "backend",
                                           "p_value",
                                           "eager_latency",
                                           "status",
                                           "error"};
  const auto header = csv_columns();
  ASSERT_GE(header.size(), dynamo.size());
  EXPECT_EQ(std::vector<std::string>(header.begin(), header.begin() + dynamo.size()), dynamo);
  EXPECT_EQ(csv_header(true), "dev,name,batch_size,accuracy,backend,detail");
}

TEST(RowSchema, EveryFieldSurvivesJson) {
  const ResultRow sample = testing::sample_row();
  const ResultRow back = row_from_json(row_to_json(sample));
  for (const auto& field : row_fields()) {
    EXPECT_EQ(field.to_json(back), field.to_json(sample)) << field.json_key;
  }
}

TEST(RowSchema, EveryReadableCsvColumnSurvivesTheCsv) {
  const ResultRow sample = testing::sample_row();
  const auto read = read_csv_rows(csv_header() + "\n" + csv_line(sample) + "\n");
  ASSERT_EQ(read.size(), 1u);
  for (const auto& field : row_fields()) {
    if (!field.csv_column || !field.from_text) continue;  // samples is derived
    EXPECT_EQ(field.to_text(read[0].row), field.to_text(sample)) << field.csv_column;
  }
  // Cells come back exactly as written, the derived samples count included.
  EXPECT_EQ(csv_record(read[0].cells), csv_line(sample));
}

TEST(RowSchema, AccuracyCsvKeepsStatusAndDetail) {
  ResultRow row = testing::sample_row();
  row.status = status::kFailAccuracy;
  row.error = "logits: max abs error 0.5, cosine 0.2";
  const auto read = read_csv_rows(csv_header(true) + "\n" + csv_line(row, true) + "\n", true);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].row.status, row.status);
  EXPECT_EQ(read[0].row.error, row.error);
  EXPECT_EQ(read[0].row.backend, row.backend);
}

}  // namespace
}  // namespace tracebench
