#include "report/json.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "tracebench/error.h"

namespace tracebench {

using nlohmann::json;

namespace {

json number(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

double number_from(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::nan("");
  return it->get<double>();
}

template <typename T>
T value_or(const json& object, const char* key, T fallback) {
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? fallback : it->get<T>();
}

}  // namespace

json environment_to_json(const Environment& e) {
  return {{"cpu_model", e.cpu_model},
          {"logical_cores", e.logical_cores},
          {"torch_threads", e.torch_threads},
          {"libtorch_version", e.libtorch_version},
          {"libtorch_config", e.libtorch_config},
          {"blas_libraries", e.blas_libraries},
          {"openblas_threads", e.openblas_threads},
          {"compiler", e.compiler},
          {"tracebench_version", e.tracebench_version},
          {"git_revision", e.git_revision},
          {"time_utc", e.time_utc},
          {"hostname", e.hostname},
          {"load_average", e.load_average},
          {"cpu_governor", e.cpu_governor}};
}

Environment environment_from_json(const json& j) {
  Environment e;
  e.cpu_model = value_or<std::string>(j, "cpu_model", "");
  e.logical_cores = value_or<int>(j, "logical_cores", 0);
  e.torch_threads = value_or<int>(j, "torch_threads", 0);
  e.libtorch_version = value_or<std::string>(j, "libtorch_version", "");
  e.libtorch_config = value_or<std::string>(j, "libtorch_config", "");
  e.blas_libraries = value_or<std::vector<std::string>>(j, "blas_libraries", {});
  e.openblas_threads = value_or<int>(j, "openblas_threads", 0);
  e.compiler = value_or<std::string>(j, "compiler", "");
  e.tracebench_version = value_or<std::string>(j, "tracebench_version", "");
  e.git_revision = value_or<std::string>(j, "git_revision", "");
  e.time_utc = value_or<std::string>(j, "time_utc", "");
  e.hostname = value_or<std::string>(j, "hostname", "");
  e.load_average = value_or<std::string>(j, "load_average", "");
  e.cpu_governor = value_or<std::string>(j, "cpu_governor", "");
  return e;
}

json row_to_json(const ResultRow& row) {
  json warnings = json::array();
  for (size_t i = 0; i < row.warnings.size(); ++i) {
    warnings.push_back({{"code", i < row.warning_codes.size() ? row.warning_codes[i] : ""},
                        {"message", row.warnings[i]}});
  }
  return {{"device", row.device},
          {"mode", row.mode},
          {"model", row.model},
          {"backend", row.backend},
          {"batch_size", row.batch_size},
          {"status", row.status},
          {"error", row.error},
          {"speedup", number(row.speedup)},
          {"ci_low", number(row.ci_low)},
          {"ci_high", number(row.ci_high)},
          {"welch_p", number(row.p_value)},
          {"mann_whitney_p", number(row.mann_whitney_p)},
          {"abs_latency_ms", number(row.abs_latency_ms)},
          {"eager_latency_ms", number(row.eager_latency_ms)},
          {"compilation_latency_s", number(row.compilation_latency_s)},
          {"first_call_latency_s", number(row.first_call_latency_s)},
          {"eager_peak_mem_mb", number(row.eager_peak_mem_mb)},
          {"backend_peak_mem_mb", number(row.backend_peak_mem_mb)},
          {"compression_ratio", number(row.compression_ratio)},
          {"iterations_per_run", row.iterations_per_run},
          {"samples", row.samples()},
          {"samples_s", row.samples_s},
          {"eager_samples_s", row.eager_samples_s},
          {"counters", row.counters},
          {"warnings", warnings}};
}

ResultRow row_from_json(const json& j) {
  ResultRow row;
  row.device = value_or<std::string>(j, "device", "cpu");
  row.mode = value_or<std::string>(j, "mode", "eval");
  row.model = j.at("model").get<std::string>();
  row.backend = j.at("backend").get<std::string>();
  row.batch_size = value_or<int64_t>(j, "batch_size", 0);
  row.status = j.at("status").get<std::string>();
  row.error = value_or<std::string>(j, "error", "");
  row.speedup = number_from(j, "speedup");
  if (std::isnan(row.speedup)) row.speedup = 0;
  row.ci_low = number_from(j, "ci_low");
  row.ci_high = number_from(j, "ci_high");
  row.p_value = number_from(j, "welch_p");
  row.mann_whitney_p = number_from(j, "mann_whitney_p");
  row.abs_latency_ms = number_from(j, "abs_latency_ms");
  row.eager_latency_ms = number_from(j, "eager_latency_ms");
  row.compilation_latency_s = number_from(j, "compilation_latency_s");
  row.first_call_latency_s = number_from(j, "first_call_latency_s");
  row.eager_peak_mem_mb = number_from(j, "eager_peak_mem_mb");
  row.backend_peak_mem_mb = number_from(j, "backend_peak_mem_mb");
  row.compression_ratio = number_from(j, "compression_ratio");
  row.iterations_per_run = value_or<int64_t>(j, "iterations_per_run", 1);
  row.samples_s = value_or<std::vector<double>>(j, "samples_s", {});
  row.eager_samples_s = value_or<std::vector<double>>(j, "eager_samples_s", {});
  row.counters = value_or<std::map<std::string, double>>(j, "counters", {});
  for (const auto& warning : value_or<json>(j, "warnings", json::array())) {
    row.warning_codes.push_back(warning.at("code").get<std::string>());
    row.warnings.push_back(warning.at("message").get<std::string>());
  }
  return row;
}

json report_to_json(const RunReport& report) {
  json rows = json::array();
  for (const auto& row : report.rows) rows.push_back(row_to_json(row));
  return {{"schema", kJsonSchemaName},
          {"schema_version", kJsonSchemaVersion},
          {"environment", environment_to_json(report.environment)},
          {"config", report.config},
          {"rows", rows}};
}

RunReport report_from_json(const json& j, const std::string& origin) {
  if (!j.is_object() || value_or<std::string>(j, "schema", "") != kJsonSchemaName) {
    throw UsageError(origin + " is not a tracebench results file (no \"schema\": \"" +
                     kJsonSchemaName + "\"); pass a file written by --json");
  }
  const int version = value_or<int>(j, "schema_version", 0);
  if (version != kJsonSchemaVersion) {
    throw UsageError(origin + " has schema_version " + std::to_string(version) +
                     ", this tracebench reads " + std::to_string(kJsonSchemaVersion) +
                     "; re-run it with this version");
  }
  RunReport report;
  try {
    report.environment = environment_from_json(j.at("environment"));
    report.config = value_or<json>(j, "config", json::object());
    for (const auto& row : j.at("rows")) report.rows.push_back(row_from_json(row));
  } catch (const json::exception& error) {
    std::string what = error.what();
    throw UsageError(origin + " has a malformed field (" + what.substr(0, what.find('\n')) +
                     "); regenerate it with --json");
  }
  return report;
}

void write_report_atomically(const std::string& path, const RunReport& report) {
  const std::string temporary = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::trunc);
    if (!out) throw UsageError("cannot write " + path + "; choose a writable --json path");
    out << report_to_json(report).dump(1) << "\n";
    out.flush();
    if (!out) throw UsageError("could not finish writing " + temporary + " (disk full?)");
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw UsageError("cannot replace " + path + "; choose a writable --json path");
  }
}

RunReport read_report(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read " + path + "; check the path");
  json parsed;
  try {
    parsed = json::parse(in);
  } catch (const json::parse_error& error) {
    throw UsageError(path + " is not valid JSON (truncated? byte " +
                     std::to_string(error.byte) + "); re-run to regenerate it");
  }
  return report_from_json(parsed, path);
}

}  // namespace tracebench
