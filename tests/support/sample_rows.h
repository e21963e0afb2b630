#pragma once
// A passing result row with every measurement filled in (numbers, samples,
// counters, a warning), shared by the report writers' tests so that a writer
// dropping a field shows up as a difference.

#include <string>

#include "report/result_row.h"

namespace tracebench::testing {

inline ResultRow sample_row() {
  ResultRow row;
  row.mode = "train";
  row.precision = "bf16";
  row.chosen = "xnnpack";
  row.ran_precision = "bf16";
  row.sqnr_db = 41.5;
  row.top1_agreement = 98.5;
  row.runtime = "OpenVINO 2026.4.1";
  row.runtime_settings = "NUM_STREAMS=1";
  row.model = "LinearModel";
  row.backend = "ts";
  row.batch_size = 2;
  row.threads = 3;
  row.streams = 2;
  row.allocator = "jemalloc";
  row.error = "warning: eager output holds NaN or Inf";
  row.iterations_per_run = 3;
  row.speedup = 1.25;
  row.ci_low = 1.2;
  row.ci_high = 1.3;
  row.p_value = 0.01;
  row.mann_whitney_p = 0.02;
  row.abs_latency_ms = 1.0;
  row.eager_latency_ms = 1.25;
  row.compilation_latency_s = 0.5;
  row.first_call_latency_s = 0.1;
  row.eager_peak_mem_mb = 2.0;
  row.backend_peak_mem_mb = 1.0;
  row.compression_ratio = 2.0;
  row.flops = 2e6;
  row.peak_gflops = 100;
  row.samples_s = {0.001, 0.0011};
  row.eager_samples_s = {0.00125, 0.0013};
  row.counters = {{"graphs", 2}, {"graph_compile_s", 0.25}};
  row.shape_latency_ms = {{"batch=1", 1.0}, {"batch=2", 1.9}};
  row.profile_trace = "profiles/LinearModel.ts.json";
  row.top_ops = {{"aten::addmm", 2, 0.5, 0.75}, {"aten::relu", 1, 0.125, 0.1875}};
  row.warning_codes = {"high_cv"};
  row.warnings = {"ts: noisy"};
  return row;
}

/// A row of `samples` timed samples per side around the given medians, each
/// scaled by 1 + spread * (i % 5 - 2): a fixed, known noise for the
/// statistics of compare and the reports.
inline ResultRow timed_row(const std::string& model, const std::string& backend, double latency_ms,
                           double eager_ms, int samples, double spread) {
  ResultRow row;
  row.model = model;
  row.backend = backend;
  for (int i = 0; i < samples; ++i) {
    const double wobble = 1 + spread * ((i % 5) - 2);
    row.samples_s.push_back(latency_ms * wobble / 1e3);
    row.eager_samples_s.push_back(eager_ms * wobble / 1e3);
  }
  row.abs_latency_ms = latency_ms;
  row.eager_latency_ms = eager_ms;
  row.speedup = eager_ms / latency_ms;
  return row;
}

}  // namespace tracebench::testing
