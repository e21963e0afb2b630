// Golden tests for the writers people read: the JSON report file, the
// `compare` text and the rows `merge` produces, each compared with its exact
// expected output for fixed inputs. A change to a writer's format must update
// the text here on purpose.

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "app/cli.h"
#include "report/compare.h"
#include "report/json.h"
#include "report/merge.h"
#include "report/report_file.h"
#include "sample_rows.h"
#include "test_paths.h"

namespace tracebench {
namespace {

using testing::sample_row;

Environment fixed_environment() {
  Environment e;
  e.cpu_model = "Test CPU @ 3.00GHz";
  e.logical_cores = 16;
  e.torch_threads = 8;
  e.libtorch_version = "2.3.0";
  e.libtorch_config = "BLAS_INFO=open";
  e.blas_libraries = {"/usr/lib/libopenblas.so.0"};
  e.openblas_threads = 1;
  e.compiler = "GNU 12.2.0";
  e.build_type = "Release";
  e.cpu_flags = {"avx2", "fma", "avx512f"};
  e.tracebench_version = "0.1.0";
  e.git_revision = "abc1234";
  e.time_utc = "2024-01-02T03:04:05Z";
  e.hostname = "bench-host";
  e.load_average = "0.10 0.20 0.30";
  e.system_checks = {{"cpu_governor", "ok", "performance on CPUs 0-7"}};
  e.cpus = "0-7";
  e.peak_gflops_by_threads = {{8, {{"conv2d_fp32", 180.5}, {"mm_fp32", 90.25}}}};
  return e;
}

TEST(ReportGolden, JsonFileText) {
  RunReport report;
  report.environment = fixed_environment();
  report.config = {{"mode", "eval"}, {"repeat", 30}};
  auto failed = sample_row();
  failed.model = "BrokenModel";
  failed.status = status::kFailToRun;
  failed.error = "RuntimeError: shape mismatch";
  failed.speedup = 0;
  failed.ci_low = failed.ci_high = std::nan("");
  failed.samples_s.clear();
  failed.warning_codes.clear();
  failed.warnings.clear();
  report.rows = {sample_row(), failed};
  // What render_json puts in the file (before its final newline).
  const std::string expected = R"({
 "columns": {
  "abs_latency_ms": {
   "csv_column": "abs_latency",
   "unit": "ms"
  },
  "backend": {
   "csv_column": "backend",
   "unit": ""
  },
  "backend_peak_mem_mb": {
   "csv_column": "backend_peak_mem",
   "unit": "MB"
  },
  "batch_size": {
   "csv_column": "batch_size",
   "unit": ""
  },
  "chosen": {
   "csv_column": "chosen",
   "unit": ""
  },
  "ci_high": {
   "csv_column": "ci_high",
   "unit": "x"
  },
  "ci_low": {
   "csv_column": "ci_low",
   "unit": "x"
  },
  "compilation_latency_s": {
   "csv_column": "compilation_latency",
   "unit": "s"
  },
  "compression_ratio": {
   "csv_column": "compression_ratio",
   "unit": "x"
  },
  "counters": {
   "csv_column": null,
   "unit": ""
  },
  "device": {
   "csv_column": "dev",
   "unit": ""
  },
  "eager_latency_ms": {
   "csv_column": "eager_latency",
   "unit": "ms"
  },
  "eager_peak_mem_mb": {
   "csv_column": "eager_peak_mem",
   "unit": "MB"
  },
  "eager_samples_s": {
   "csv_column": null,
   "unit": "s"
  },
  "error": {
   "csv_column": "error",
   "unit": ""
  },
  "first_call_latency_s": {
   "csv_column": "first_call_latency",
   "unit": "s"
  },
  "flops": {
   "csv_column": null,
   "unit": ""
  },
  "gflops": {
   "csv_column": "gflops",
   "unit": "GFLOP/s"
  },
  "graph_compile_s": {
   "csv_column": "graph_compile_s",
   "unit": "s"
  },
  "graphs": {
   "csv_column": "graphs",
   "unit": ""
  },
  "iterations_per_run": {
   "csv_column": "iterations_per_run",
   "unit": ""
  },
  "malloc": {
   "csv_column": "malloc",
   "unit": ""
  },
  "mann_whitney_p": {
   "csv_column": "mann_whitney_p",
   "unit": ""
  },
  "mode": {
   "csv_column": "mode",
   "unit": ""
  },
  "model": {
   "csv_column": "name",
   "unit": ""
  },
  "p50_latency": {
   "csv_column": "p50_latency",
   "unit": "ms"
  },
  "p90_latency": {
   "csv_column": "p90_latency",
   "unit": "ms"
  },
  "p999_latency": {
   "csv_column": "p999_latency",
   "unit": "ms"
  },
  "p99_latency": {
   "csv_column": "p99_latency",
   "unit": "ms"
  },
  "peak_gflops": {
   "csv_column": null,
   "unit": "GFLOP/s"
  },
  "peak_share": {
   "csv_column": "peak_share",
   "unit": ""
  },
  "precision": {
   "csv_column": "precision",
   "unit": ""
  },
  "profile_trace": {
   "csv_column": null,
   "unit": ""
  },
  "ran_precision": {
   "csv_column": "ran_precision",
   "unit": ""
  },
  "runtime": {
   "csv_column": "runtime",
   "unit": ""
  },
  "runtime_settings": {
   "csv_column": "runtime_settings",
   "unit": ""
  },
  "samples": {
   "csv_column": "samples",
   "unit": ""
  },
  "samples_s": {
   "csv_column": null,
   "unit": "s"
  },
  "shape_latency_ms": {
   "csv_column": "shape_latency",
   "unit": "ms"
  },
  "speedup": {
   "csv_column": "speedup",
   "unit": "x"
  },
  "sqnr_db": {
   "csv_column": "sqnr_db",
   "unit": "dB"
  },
  "status": {
   "csv_column": "status",
   "unit": ""
  },
  "streams": {
   "csv_column": "streams",
   "unit": ""
  },
  "threads": {
   "csv_column": "threads",
   "unit": ""
  },
  "throughput": {
   "csv_column": "throughput",
   "unit": "samples/s"
  },
  "top1_agreement": {
   "csv_column": "top1_agreement",
   "unit": "%"
  },
  "top_ops": {
   "csv_column": null,
   "unit": "ms"
  },
  "warnings": {
   "csv_column": "warnings",
   "unit": ""
  },
  "welch_p": {
   "csv_column": "p_value",
   "unit": ""
  }
 },
 "config": {
  "mode": "eval",
  "repeat": 30
 },
 "environment": {
  "blas_libraries": [
   "/usr/lib/libopenblas.so.0"
  ],
  "build_type": "Release",
  "compiler": "GNU 12.2.0",
  "cpu_flags": [
   "avx2",
   "fma",
   "avx512f"
  ],
  "cpu_model": "Test CPU @ 3.00GHz",
  "cpus": "0-7",
  "git_revision": "abc1234",
  "hostname": "bench-host",
  "libtorch_config": "BLAS_INFO=open",
  "libtorch_version": "2.3.0",
  "load_average": "0.10 0.20 0.30",
  "logical_cores": 16,
  "openblas_threads": 1,
  "peak_gflops_by_threads": {
   "8": {
    "conv2d_fp32": 180.5,
    "mm_fp32": 90.25
   }
  },
  "system_checks": [
   {
    "detail": "performance on CPUs 0-7",
    "name": "cpu_governor",
    "state": "ok"
   }
  ],
  "time_utc": "2024-01-02T03:04:05Z",
  "torch_threads": 8,
  "tracebench_version": "0.1.0"
 },
 "rows": [
  {
   "abs_latency_ms": 1.0,
   "backend": "ts",
   "backend_peak_mem_mb": 1.0,
   "batch_size": 2,
   "chosen": "xnnpack",
   "ci_high": 1.3,
   "ci_low": 1.2,
   "compilation_latency_s": 0.5,
   "compression_ratio": 2.0,
   "counters": {
    "graph_compile_s": 0.25,
    "graphs": 2.0
   },
   "device": "cpu",
   "eager_latency_ms": 1.25,
   "eager_peak_mem_mb": 2.0,
   "eager_samples_s": [
    0.00125,
    0.0013
   ],
   "error": "warning: eager output holds NaN or Inf",
   "first_call_latency_s": 0.1,
   "flops": 2000000.0,
   "gflops": 2.0,
   "graph_compile_s": 0.25,
   "graphs": 2.0,
   "iterations_per_run": 3,
   "malloc": "jemalloc",
   "mann_whitney_p": 0.02,
   "mode": "train",
   "model": "LinearModel",
   "p50_latency": 1.0,
   "p90_latency": null,
   "p999_latency": null,
   "p99_latency": null,
   "peak_gflops": 100.0,
   "peak_share": 0.02,
   "precision": "bf16",
   "profile_trace": "profiles/LinearModel.ts.json",
   "ran_precision": "bf16",
   "runtime": "OpenVINO 2026.4.1",
   "runtime_settings": "NUM_STREAMS=1",
   "samples": 2,
   "samples_s": [
    0.001,
    0.0011
   ],
   "shape_latency_ms": {
    "batch=1": 1.0,
    "batch=2": 1.9
   },
   "speedup": 1.25,
   "sqnr_db": 41.5,
   "status": "pass",
   "streams": 2,
   "threads": 3,
   "throughput": 2068.9655172413795,
   "top1_agreement": 98.5,
   "top_ops": [
    {
     "calls": 2,
     "name": "aten::addmm",
     "self_ms": 0.5,
     "share": 0.75
    },
    {
     "calls": 1,
     "name": "aten::relu",
     "self_ms": 0.125,
     "share": 0.1875
    }
   ],
   "warnings": [
    {
     "code": "high_cv",
     "message": "ts: noisy"
    }
   ],
   "welch_p": 0.01
  },
  {
   "abs_latency_ms": 1.0,
   "backend": "ts",
   "backend_peak_mem_mb": 1.0,
   "batch_size": 2,
   "chosen": "xnnpack",
   "ci_high": null,
   "ci_low": null,
   "compilation_latency_s": 0.5,
   "compression_ratio": 2.0,
   "counters": {
    "graph_compile_s": 0.25,
    "graphs": 2.0
   },
   "device": "cpu",
   "eager_latency_ms": 1.25,
   "eager_peak_mem_mb": 2.0,
   "eager_samples_s": [
    0.00125,
    0.0013
   ],
   "error": "RuntimeError: shape mismatch",
   "first_call_latency_s": 0.1,
   "flops": 2000000.0,
   "gflops": null,
   "graph_compile_s": 0.25,
   "graphs": 2.0,
   "iterations_per_run": 3,
   "malloc": "jemalloc",
   "mann_whitney_p": 0.02,
   "mode": "train",
   "model": "BrokenModel",
   "p50_latency": null,
   "p90_latency": null,
   "p999_latency": null,
   "p99_latency": null,
   "peak_gflops": 100.0,
   "peak_share": null,
   "precision": "bf16",
   "profile_trace": "profiles/LinearModel.ts.json",
   "ran_precision": "bf16",
   "runtime": "OpenVINO 2026.4.1",
   "runtime_settings": "NUM_STREAMS=1",
   "samples": 0,
   "samples_s": [],
   "shape_latency_ms": {
    "batch=1": 1.0,
    "batch=2": 1.9
   },
   "speedup": 0.0,
   "sqnr_db": 41.5,
   "status": "fail_to_run",
   "streams": 2,
   "threads": 3,
   "throughput": null,
   "top1_agreement": 98.5,
   "top_ops": [
    {
     "calls": 2,
     "name": "aten::addmm",
     "self_ms": 0.5,
     "share": 0.75
    },
    {
     "calls": 1,
     "name": "aten::relu",
     "self_ms": 0.125,
     "share": 0.1875
    }
   ],
   "warnings": [],
   "welch_p": 0.01
  }
 ],
 "schema": "tracebench-results",
 "schema_version": 1
})";
  EXPECT_EQ(report_to_json(report).dump(1), expected);
}

// A passing row whose samples wobble +-2% around `latency_ms` (eager around
// `eager_ms`), so Mann-Whitney has distinct values to rank.
ResultRow measured_row(const std::string& model, const std::string& backend, double latency_ms,
                       double eager_ms) {
  return testing::timed_row(model, backend, latency_ms, eager_ms, /*samples=*/10, /*spread=*/0.01);
}

RunReport report_of(std::vector<ResultRow> rows) {
  RunReport report;
  report.environment = fixed_environment();
  report.rows = std::move(rows);
  return report;
}

TEST(ReportGolden, CompareText) {
  auto failing = measured_row("vgg11", "ts", 2.0, 3.0);
  failing.status = status::kFailToRun;
  const auto base = report_of({measured_row("alexnet", "ts", 1.0, 2.0),
                               measured_row("resnet18", "lazy_trace_once", 4.0, 5.0),
                               measured_row("vgg11", "ts", 2.0, 3.0),
                               measured_row("squeezenet1_0", "ts", 1.0, 1.5)});
  const auto next = report_of({measured_row("alexnet", "ts", 1.2, 2.0),
                               measured_row("resnet18", "lazy_trace_once", 4.0, 5.0), failing,
                               measured_row("mobilenet_v2", "ts", 1.0, 1.1)});
  const std::string expected =
      R"(model                       backend             base ms     new ms   change      p   speedup base->new  verdict
alexnet                     ts                    1.000      1.200   +20.0%  0.000    2.000x -> 1.667x  regressed
resnet18                    lazy_trace_once       4.000      4.000    +0.0%  1.000    1.250x -> 1.250x  unchanged
vgg11                       ts                        -          -        -      -                   -  newly_failing
squeezenet1_0               ts                        -          -        -      -                   -  only_base
mobilenet_v2                ts                        -          -        -      -                   -  only_new
geomean latency change: +9.5%   geomean speedup change: -8.7%
2 regression(s), 0 improvement(s) (latency change beyond 5% with Mann-Whitney p < 0.05; newly failing rows count as regressions)
)";
  EXPECT_EQ(format_comparison(compare_reports(base, next, 0.05)), expected);
}

// A bf16 run is not a faster fp32 run: compare refuses it with the setting
// named, unless told the change is the point.
TEST(ReportGolden, CompareRefusesRunsOfDifferentPrecision) {
  auto fp32 = report_of({measured_row("alexnet", "ts", 2.0, 2.0)});
  fp32.config = {{"precision", "fp32"}, {"threads", 2}};
  auto bf16 = report_of({measured_row("alexnet", "ts", 1.0, 2.0)});
  bf16.rows[0].precision = "bf16";
  bf16.config = {{"precision", "bf16"}, {"threads", 2}};
  const auto base_path = testing::process_temp_path("fp32.json").string();
  const auto next_path = testing::process_temp_path("bf16.json").string();
  write_report_file(base_path, "json", render_json(fp32));
  write_report_file(next_path, "json", render_json(bf16));

  auto compare = [&](std::vector<const char*> extra, std::string& printed) {
    std::vector<const char*> argv = {"tracebench", "compare", base_path.c_str(), next_path.c_str()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    std::ostringstream out, err;
    const int code = run_cli(static_cast<int>(argv.size()), argv.data(), out, err);
    printed = out.str() + err.str();
    return code;
  };
  std::string printed;
  EXPECT_EQ(compare({}, printed), 2);
  EXPECT_EQ(printed,
            "tracebench: error: the two runs were measured under different settings (precision: "
            "\"fp32\" -> \"bf16\"); re-run one with the other's settings, or pass "
            "--allow-config-change\n");

  EXPECT_EQ(compare({"--allow-config-change"}, printed), 0);
  EXPECT_EQ(printed.substr(0, printed.find('\n')),
            R"(settings differ (--allow-config-change): precision: "fp32" -> "bf16")");
  EXPECT_NE(printed.find("-50.0%"), std::string::npos) << printed;  // the rows were matched
}

TEST(ReportGolden, MergedRows) {
  auto shard0 = report_of(
      {measured_row("alexnet", "ts", 1.0, 2.0), measured_row("alexnet", "eager", 2.0, 2.0)});
  shard0.config = {{"partition_id", 0}, {"total_partitions", 2}};
  auto shard1 = report_of({measured_row("resnet18", "ts", 4.0, 5.0)});
  shard1.environment.hostname = "other-host";
  shard1.config = {{"partition_id", 1}, {"total_partitions", 2}};

  const auto merged = merge_reports({{"p0.json", shard0}, {"p1.json", shard1}});

  // Every row of every input, in input order, unchanged.
  ASSERT_EQ(merged.rows.size(), 3u);
  const std::vector<ResultRow> expected_rows = {shard0.rows[0], shard0.rows[1], shard1.rows[0]};
  for (size_t i = 0; i < expected_rows.size(); ++i) {
    EXPECT_EQ(row_to_json(merged.rows[i]), row_to_json(expected_rows[i])) << "row " << i;
  }
  // The first input's environment and config, plus where the rows came from.
  EXPECT_EQ(environment_to_json(merged.environment), environment_to_json(fixed_environment()));
  EXPECT_EQ(merged.config, nlohmann::json::parse(R"({
    "partition_id": 0, "total_partitions": 2, "merged_from": ["p0.json", "p1.json"]
  })"));
}

}  // namespace
}  // namespace tracebench
