// Sweeps: `--batch-size 1,8 --threads 1,2` expands into one point per
// combination, and the writers split a sweep's rows into one grid (and chart)
// per point, found from the rows alone.

#include <gtest/gtest.h>

#include <torch/script.h>

#include "measure/environment.h"
#include "orchestration/validate_options.h"
#include "report/console.h"
#include "report/html.h"
#include "report/markdown.h"
#include "report/sweep_groups.h"
#include "sample_rows.h"
#include "settings/run_options.h"
#include "settings/sweep.h"
#include "usage_error_helpers.h"

namespace tracebench {
namespace {

using testing::timed_row;

TEST(Sweep, EveryCombinationIsAPointBatchSizesOuter) {
  RunOptions options;
  options.batch_size_sweep = {1, 8};
  options.threads_sweep = {1, 2};
  const auto points = sweep_points(options);
  ASSERT_EQ(points.size(), 4u);
  const std::vector<std::pair<int64_t, int64_t>> expected = {{1, 1}, {1, 2}, {8, 1}, {8, 2}};
  for (size_t i = 0; i < points.size(); ++i) {
    EXPECT_EQ(points[i].batch_size, expected[i].first);
    EXPECT_EQ(points[i].threads, expected[i].second);
  }
  EXPECT_EQ(sweep_point_label(points[3], options), "batch 8, 2 threads");
  EXPECT_EQ(sweep_point_label(points[0], options), "batch 1, 1 thread");
}

TEST(Sweep, AllocatorsAreTheOuterAxis) {
  RunOptions options;
  options.allocator_sweep = {"glibc", "jemalloc"};
  options.threads_sweep = {1, 2};
  const auto points = sweep_points(options);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[1].allocator, "glibc");
  EXPECT_EQ(points[2].allocator, "jemalloc");
  EXPECT_EQ(points[2].threads, 1);
  EXPECT_EQ(sweep_point_label(points[2], options), "1 thread, jemalloc");
  options.allocator_sweep = {"tcmalloc"};  // one value: the run's allocator, no label
  const auto single = sweep_points(options);
  EXPECT_EQ(single[0].allocator, "tcmalloc");
  EXPECT_EQ(sweep_point_label(single[0], options), "1 thread");
}

TEST(Sweep, NoListIsOnePointWithTheDefaults) {
  RunOptions options;
  options.inherited_allocator = "hugetlb";
  const auto unset = sweep_points(options);
  ASSERT_EQ(unset.size(), 1u);
  EXPECT_FALSE(unset[0].batch_size.has_value());
  // LibTorch's count as the process found it, not a later point's setting.
  EXPECT_EQ(unset[0].threads, default_intra_op_threads());
  EXPECT_EQ(unset[0].threads, torch::get_num_threads());
  EXPECT_EQ(unset[0].allocator, "hugetlb");  // what the process was started with
  EXPECT_EQ(sweep_point_label(unset[0], options), "");
  options.cpus = "0";  // --cpus without --threads: as many threads as CPUs
  EXPECT_EQ(sweep_points(options)[0].threads, 1);
  options.cpus = "";

  options.batch_size_sweep = {4};  // one value: no sweep, no label
  const auto single = sweep_points(options);
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0].batch_size, 4);
  EXPECT_EQ(sweep_point_label(single[0], options), "");
}

TEST(Sweep, BadListsNameTheFix) {
  RunOptions options;
  options.threads_sweep = {1, 0};
  EXPECT_EQ(testing::usage_error_of([&] { validate(options); }),
            "--threads must be at least 1, got 0");
  options.threads_sweep = {2, 1, 2};
  EXPECT_EQ(testing::usage_error_of([&] { validate(options); }),
            "--threads names 2 twice; give each value once");
  options.threads_sweep = {};
  options.batch_size_sweep = {1, 8};
  options.save_optimized = "out_dir";
  EXPECT_CONTAINS(testing::usage_error_of([&] { validate(options); }), "not a sweep");
}

ResultRow at(const std::string& model, const std::string& backend, int64_t batch, int64_t threads,
             double latency_ms) {
  ResultRow row = timed_row(model, backend, latency_ms, latency_ms * 2, 8, 0);
  row.batch_size = batch;
  row.threads = threads;
  return row;
}

TEST(SweepGroups, ModelsOwnBatchSizesAreNoSweep) {
  // Two models at their own batch sizes, one thread count: one grid.
  const auto groups = sweep_groups({at("a", "ts", 2, 4, 1), at("b", "ts", 8, 4, 1)});
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].label, "");
  EXPECT_EQ(groups[0].rows.size(), 2u);
}

TEST(SweepGroups, OneGroupPerPointInFirstSeenOrder) {
  std::vector<ResultRow> rows;
  for (int64_t batch : {1, 8}) {
    for (int64_t threads : {1, 2}) {
      rows.push_back(at("a", "ts", batch, threads, batch * 1.0 / threads));
      rows.push_back(at("b", "ts", batch, threads, batch * 2.0 / threads));
    }
  }
  const auto groups = sweep_groups(rows);
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(groups[0].label, "batch 1, 1 thread");
  EXPECT_EQ(groups[3].label, "batch 8, 2 threads");
  for (const auto& group : groups) EXPECT_EQ(group.rows.size(), 2u) << group.label;

  // Threads alone swept: the label names only them.
  const auto by_threads = sweep_groups({at("a", "ts", 2, 1, 1), at("a", "ts", 2, 2, 1)});
  ASSERT_EQ(by_threads.size(), 2u);
  EXPECT_EQ(by_threads[1].label, "2 threads");

  // Allocators swept (--malloc): the label names the allocator.
  ResultRow jemalloc = at("a", "ts", 2, 2, 1);
  jemalloc.allocator = "jemalloc";
  const auto by_allocator = sweep_groups({at("a", "ts", 2, 2, 1), jemalloc});
  ASSERT_EQ(by_allocator.size(), 2u);
  EXPECT_EQ(by_allocator[0].label, "glibc");
  EXPECT_EQ(by_allocator[1].label, "jemalloc");
}

// Each console line of a sweep names its point, from the axes the run's
// config records as lists; a run that sweeps nothing keeps the seed's line.
TEST(SweepGroups, ConsoleLineNamesThePoint) {
  ResultRow row = at("resnet18", "ofi", 8, 2, 1);
  row.allocator = "jemalloc";
  const nlohmann::json swept = {
      {"batch_size", {1, 8}}, {"threads", 2}, {"malloc", {"glibc", "jemalloc"}}};
  EXPECT_EQ(row_sweep_label(row, swept), "batch 8, jemalloc");
  EXPECT_EQ(row_sweep_label(row, {{"batch_size", 8}, {"threads", {1, 2}}, {"malloc", "jemalloc"}}),
            "2 threads");
  const nlohmann::json single = {{"batch_size", 8}, {"threads", 2}, {"malloc", "jemalloc"}};
  EXPECT_EQ(row_sweep_label(row, single), "");
  EXPECT_EQ(format_result_line(row, 0, false, row_sweep_label(row, swept))
                .rfind("cpu  eval  resnet18 (batch 8, jemalloc) ", 0),
            0u);
}

TEST(SweepGroups, GridAndMarkdownShowOneTablePerPoint) {
  std::vector<ResultRow> rows;
  for (int64_t batch : {1, 8}) rows.push_back(at("a", "ts", batch, 2, batch * 1.0));
  const std::string grid = format_grid_table(rows, {"ts"});
  EXPECT_CONTAINS(grid, "batch 1:\n+");
  EXPECT_CONTAINS(grid, "\nbatch 8:\n+");
  RunReport report;
  report.rows = rows;
  const std::string markdown = render_markdown(report);
  EXPECT_CONTAINS(markdown, "**batch 1**\n\n| Model |");
  EXPECT_CONTAINS(markdown, "**batch 8**\n\n| Model |");
}

TEST(SweepGroups, HtmlDrawsLatencyAndThroughputAgainstBatchSize) {
  RunReport report;
  for (int64_t batch : {1, 8, 32}) {
    report.rows.push_back(at("a", "ts", batch, 2, batch * 1.0));
    report.rows.push_back(at("a", "ofi", batch, 2, batch * 0.5));
  }
  const std::string html = render_html(report);
  EXPECT_CONTAINS(html, "<h2>Batch-size sweep</h2>");
  // Two charts (latency, throughput) for the one model, each a line per
  // backend and one for eager.
  size_t charts = 0, lines = 0;
  for (size_t at = html.find("<svg class=\"sweep-chart\""); at != std::string::npos;
       at = html.find("<svg class=\"sweep-chart\"", at + 1)) {
    ++charts;
  }
  for (size_t at = html.find("class=\"sweep-line\""); at != std::string::npos;
       at = html.find("class=\"sweep-line\"", at + 1)) {
    ++lines;
  }
  EXPECT_EQ(charts, 2u);
  EXPECT_EQ(lines, 6u);
  EXPECT_CONTAINS(html, "ofi, batch 32: 16 ms");
  // ts at batch 8: 8 samples per 8 ms call is 1000 samples/s.
  EXPECT_CONTAINS(html, "ts, batch 8: 1000 samples/s");
  EXPECT_CONTAINS(html, "<h3>batch 32</h3>");

  report.rows.resize(2);  // one batch size: no sweep, no sweep charts
  EXPECT_EQ(render_html(report).find("<svg class=\"sweep-chart\""), std::string::npos);
}

}  // namespace
}  // namespace tracebench
