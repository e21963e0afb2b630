// Golden tests of what people and scripts read: the console line, the grid
// table and the CSV.

#include <gtest/gtest.h>

#include "report/console.h"
#include "report/csv.h"
#include "report/row_figures.h"

namespace tracebench {
namespace {

ResultRow measured(const std::string& model, const std::string& backend, double speedup, double p) {
  ResultRow row;
  row.model = model;
  row.backend = backend;
  row.batch_size = 2;
  row.speedup = speedup;
  row.p_value = p;
  row.abs_latency_ms = 1.5;
  row.eager_latency_ms = 1.5 * speedup;
  row.compilation_latency_s = 0.25;
  return row;
}

ResultRow failed(const std::string& model, const std::string& backend) {
  ResultRow row;
  row.model = model;
  row.backend = backend;
  row.status = status::kFailToRun;
  row.error = "boom, \"quoted\"";
  return row;
}

TEST(ConsoleFormat, SeedLineForOneBackend) {
  EXPECT_EQ(format_result_line(measured("LinearModel", "eager", 0.824, 0.001), 0),
            "cpu  eval  LinearModel                        0.824x p=0.00");
  EXPECT_EQ(format_result_line(measured("LinearModel", "eager", 1.0016, 0.834), 0),
            "cpu  eval  LinearModel                        1.002x p=0.83");
}

// --shape-set: each shape's median after the figures, smallest shape first.
TEST(ConsoleFormat, ShapeMediansBySize) {
  ResultRow row = measured("LinearModel", "ts", 1.5, 0.0);
  EXPECT_EQ(format_shape_latencies(row), "");
  row.shape_latency_ms = {{"batch=16", 0.0204}, {"batch=2", 0.01}, {"batch=4", 0.0125}};
  EXPECT_EQ(format_shape_latencies(row), "batch=2 0.010 batch=4 0.013 batch=16 0.020 ms");
}

// The CSV's cell reads back into the same medians (--resume, report from CSV).
TEST(ConsoleFormat, ShapeMediansRoundTripThroughTheCsvCell) {
  ResultRow row = measured("LinearModel", "ts", 1.5, 0.0);
  row.shape_latency_ms = {{"dim1=128", 0.5}, {"dim1=32", 0.125}};
  EXPECT_EQ(shape_latencies_cell(row), "dim1=32:0.125000;dim1=128:0.500000");
  ResultRow read = measured("LinearModel", "ts", 1.5, 0.0);
  read_shape_latencies_cell(read, shape_latencies_cell(row) + ";garbled;dim1=64:x");
  EXPECT_EQ(read.shape_latency_ms, row.shape_latency_ms);
}

// Under --shape-set batch=..., throughput counts each call's own batch: the
// sizes over their medians, not the example's batch over all samples.
TEST(ConsoleFormat, ThroughputUnderABatchShapeSetCountsEachSize) {
  ResultRow row = measured("LinearModel", "ts", 1.5, 0.0);
  row.batch_size = 2;
  row.samples_s = {0.001, 0.003};
  EXPECT_DOUBLE_EQ(throughput_per_s(row), 2 / 0.002);
  row.shape_latency_ms = {{"batch=1", 1.0}, {"batch=8", 3.0}};
  EXPECT_DOUBLE_EQ(throughput_per_s(row), 9 / 0.004);
  row.shape_latency_ms = {{"dim1=16", 1.0}, {"dim1=32", 3.0}};  // not the batch: as before
  EXPECT_DOUBLE_EQ(throughput_per_s(row), 2 / 0.002);
}

TEST(ConsoleFormat, BackendNameAddedForSeveralBackends) {
  EXPECT_EQ(format_result_line(measured("resnet18", "ofi", 1.5024, 0.0), 12),
            "cpu  eval  resnet18                           ofi          1.502x p=0.00");
}

TEST(ConsoleFormat, BackendColumnFitsTheLongestName) {
  EXPECT_EQ(backend_column_width({"eager"}), 0u);  // the seed's line: no column
  EXPECT_EQ(backend_column_width({"eager", "ts"}), 12u);
  const size_t width = backend_column_width({"lazy_trace_once", "lazy_trace_everytime"});
  EXPECT_EQ(width, 20u);
  const auto once = format_result_line(measured("resnet18", "lazy_trace_once", 1.0, 0.5), width);
  const auto every =
      format_result_line(measured("resnet18", "lazy_trace_everytime", 1.0, 0.5), width);
  EXPECT_EQ(once.find("1.000x"), every.find("1.000x"));  // aligned
  EXPECT_EQ(every,
            "cpu  eval  resnet18                           lazy_trace_everytime 1.000x p=0.50");
}

TEST(ConsoleFormat, FailedRowShowsStatusAndError) {
  EXPECT_EQ(format_result_line(failed("resnet18", "ts"), 12),
            "cpu  eval  resnet18                           ts           fail_to_run: boom, "
            "\"quoted\"");
}

TEST(ConsoleFormat, GridTableSummaryRows) {
  std::vector<ResultRow> rows = {
      measured("resnet18", "trace_once", 1.38, 0), measured("resnet18", "trace_every", 0.5, 0),
      measured("alexnet", "trace_once", 1.085, 0), failed("alexnet", "trace_every")};
  const std::string expected =
      "+-------------------+------------+-------------+\n"
      "| Model             | trace_once | trace_every |\n"
      "+===================+============+=============+\n"
      "| resnet18          |      1.380 |       0.500 |\n"
      "+-------------------+------------+-------------+\n"
      "| alexnet           |      1.085 | fail_to_run |\n"
      "+-------------------+------------+-------------+\n"
      "| geomean           |      1.224 |       0.500 |\n"
      "+-------------------+------------+-------------+\n"
      "| geomean (clamped) |      1.224 |       1.000 |\n"
      "+-------------------+------------+-------------+\n"
      "| pass rate         |       100% |         50% |\n"
      "+-------------------+------------+-------------+\n";
  EXPECT_EQ(format_grid_table(rows, {"trace_once", "trace_every"}), expected);
}

TEST(ConsoleFormat, ConfidenceIntervalWhenAsked) {
  auto row = measured("resnet18", "ofi", 1.5024, 0.0);
  row.ci_low = 1.4812;
  row.ci_high = 1.5349;
  EXPECT_EQ(
      format_result_line(row, 12, true),
      "cpu  eval  resnet18                           ofi          1.502x [1.48, 1.53] p=0.00");
  EXPECT_EQ(format_result_line(row, 0),  // the seed's line stays as it was
            "cpu  eval  resnet18                           1.502x p=0.00");
  EXPECT_EQ(format_result_line(measured("m", "ofi", 1.5, 0.0), 12, true),  // no CI: none shown
            "cpu  eval  m                                  ofi          1.500x p=0.00");
}

TEST(CsvFormat, DynamoLeadingColumnsThenOurs) {
  EXPECT_EQ(csv_header(),
            "dev,name,batch_size,speedup,abs_latency,compilation_latency,compression_ratio,"
            "backend,p_value,eager_latency,status,error,ci_low,ci_high,mann_whitney_p,samples,"
            "iterations_per_run,eager_peak_mem,backend_peak_mem,first_call_latency,warnings,mode,"
            "precision,chosen,p50_latency,p90_latency,p99_latency,p999_latency,throughput,gflops,"
            "peak_share,threads,streams,malloc,runtime,runtime_settings,shape_latency,graphs,"
            "graph_compile_s,ran_precision,sqnr_db,top1_agreement");
  EXPECT_EQ(csv_line(measured("LinearModel", "eager", 1.25, 0.5)),
            "cpu,LinearModel,2,1.250000,1.500000,0.250000,,eager,0.500000,1.875000,pass,"
            ",,,,0,1,,,,,eval,fp32,,,,,,,,,0,1,glibc,,,,,,,,");
  auto full = measured("LinearModel", "ts", 1.25, 0.5);
  full.ci_low = 1.2;
  full.ci_high = 1.3;
  full.mann_whitney_p = 0.25;
  full.samples_s = {1, 2, 3};
  full.eager_peak_mem_mb = 2;
  full.backend_peak_mem_mb = 1;
  full.compression_ratio = 2;
  full.first_call_latency_s = 0.125;
  full.warning_codes = {"high_cv", "slow_start"};
  full.mode = "train";
  full.precision = "bf16";
  full.ran_precision = "bf16";
  full.sqnr_db = 41.5;
  EXPECT_EQ(csv_line(full),
            "cpu,LinearModel,2,1.250000,1.500000,0.250000,2.000000,ts,0.500000,1.875000,pass,,"
            "1.200000,1.300000,0.250000,3,1,2.000000,1.000000,0.125000,high_cv;slow_start,train,"
            "bf16,,2000.000000,,,,1.000000,,,0,1,glibc,,,,,,bf16,41.500000,");  // p50 of 1, 2, 3 s;
                                                                                // 2 samples / 2 s
}

TEST(CsvFormat, FailedRowQuotesItsError) {
  EXPECT_EQ(csv_line(failed("m", "ts")),
            "cpu,m,0,0.000000,0.000000,0.000000,,ts,,0.000000,fail_to_run,"
            "\"boom, \"\"quoted\"\"\",,,,0,1,,,,,eval,fp32,,,,,,,,,0,1,glibc,,,,,,,,");
}

}  // namespace
}  // namespace tracebench
