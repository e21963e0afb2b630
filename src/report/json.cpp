#include "report/json.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "report/row_schema.h"
#include "tracebench/error.h"
#include "util/text.h"

namespace tracebench {

using nlohmann::json;

namespace {

template <typename T>
T value_or(const json& object, const char* key, T fallback) {
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? fallback : it->get<T>();
}

using PeaksByThreads = std::map<int64_t, std::map<std::string, double>>;

// A JSON object's keys are text: {"2": {"conv2d_fp32": 180.1, ...}}.
json peaks_to_json(const PeaksByThreads& peaks) {
  json object = json::object();
  for (const auto& [threads, kernels] : peaks) object[std::to_string(threads)] = kernels;
  return object;
}

PeaksByThreads peaks_from_json(const std::map<std::string, std::map<std::string, double>>& text) {
  PeaksByThreads peaks;
  for (const auto& [threads, kernels] : text) peaks[std::stoll(threads)] = kernels;
  return peaks;
}

json system_checks_to_json(const std::vector<SystemCheck>& checks) {
  json list = json::array();
  for (const auto& check : checks) {
    list.push_back({{"name", check.name}, {"state", check.state}, {"detail", check.detail}});
  }
  return list;
}

std::vector<SystemCheck> system_checks_from_json(const json& list) {
  std::vector<SystemCheck> checks;
  for (const auto& check : list) {
    checks.push_back({value_or<std::string>(check, "name", ""),
                      value_or<std::string>(check, "state", ""),
                      value_or<std::string>(check, "detail", "")});
  }
  return checks;
}

}  // namespace

json environment_to_json(const Environment& e) {
  return {{"cpu_model", e.cpu_model},
          {"logical_cores", e.logical_cores},
          {"torch_threads", e.torch_threads},
          {"cpus", e.cpus},
          {"libtorch_version", e.libtorch_version},
          {"libtorch_config", e.libtorch_config},
          {"blas_libraries", e.blas_libraries},
          {"openblas_threads", e.openblas_threads},
          {"compiler", e.compiler},
          {"build_type", e.build_type},
          {"cpu_flags", e.cpu_flags},
          {"tracebench_version", e.tracebench_version},
          {"git_revision", e.git_revision},
          {"time_utc", e.time_utc},
          {"hostname", e.hostname},
          {"load_average", e.load_average},
          {"system_checks", system_checks_to_json(e.system_checks)},
          {"peak_gflops_by_threads", peaks_to_json(e.peak_gflops_by_threads)}};
}

Environment environment_from_json(const json& j) {
  Environment e;
  e.cpu_model = value_or<std::string>(j, "cpu_model", "");
  e.logical_cores = value_or<int>(j, "logical_cores", 0);
  e.torch_threads = value_or<int>(j, "torch_threads", 0);
  e.cpus = value_or<std::string>(j, "cpus", "");
  e.libtorch_version = value_or<std::string>(j, "libtorch_version", "");
  e.libtorch_config = value_or<std::string>(j, "libtorch_config", "");
  e.blas_libraries = value_or<std::vector<std::string>>(j, "blas_libraries", {});
  e.openblas_threads = value_or<int>(j, "openblas_threads", 0);
  e.compiler = value_or<std::string>(j, "compiler", "");
  e.build_type = value_or<std::string>(j, "build_type", "");
  e.cpu_flags = value_or<std::vector<std::string>>(j, "cpu_flags", {});
  e.tracebench_version = value_or<std::string>(j, "tracebench_version", "");
  e.git_revision = value_or<std::string>(j, "git_revision", "");
  e.time_utc = value_or<std::string>(j, "time_utc", "");
  e.hostname = value_or<std::string>(j, "hostname", "");
  e.load_average = value_or<std::string>(j, "load_average", "");
  e.system_checks = system_checks_from_json(value_or<json>(j, "system_checks", json::array()));
  e.peak_gflops_by_threads =
      peaks_from_json(value_or<std::map<std::string, std::map<std::string, double>>>(
          j, "peak_gflops_by_threads", {}));
  return e;
}

std::vector<std::string> backends_in_order(const RunReport& report) {
  std::vector<std::string> backends;
  for (const auto& row : report.rows) {
    if (std::find(backends.begin(), backends.end(), row.backend) == backends.end()) {
      backends.push_back(row.backend);
    }
  }
  return backends;
}

json row_to_json(const ResultRow& row) {
  json object = json::object();
  for (const auto& field : row_fields()) object[field.json_key] = field.to_json(row);
  return object;
}

ResultRow row_from_json(const json& j) {
  for (const char* required : {"model", "backend", "status"}) (void)j.at(required);
  ResultRow row;
  for (const auto& field : row_fields()) {
    auto it = j.find(field.json_key);
    if (it != j.end() && !it->is_null() && field.from_json) field.from_json(row, *it);
  }
  return row;
}

namespace {

// What each row key means: its unit and CSV column, so a reader of the JSON
// alone can tell milliseconds from seconds.
json row_columns_to_json() {
  json columns = json::object();
  for (const auto& field : row_fields()) {
    columns[field.json_key] = {{"unit", field.unit},
                               {"csv_column", field.csv_column ? json(field.csv_column) : json()}};
  }
  return columns;
}

}  // namespace

json report_to_json(const RunReport& report) {
  json rows = json::array();
  for (const auto& row : report.rows) rows.push_back(row_to_json(row));
  return {{"schema", kJsonSchemaName},
          {"schema_version", kJsonSchemaVersion},
          {"environment", environment_to_json(report.environment)},
          {"config", report.config},
          {"columns", row_columns_to_json()},
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
    // Before the config recorded the thread count a run without --threads
    // computed with, it recorded null; the environment, collected at that
    // count, has it, so `compare` matches such a report with a newer one.
    if (auto threads = report.config.find("threads"); threads != report.config.end() &&
                                                      threads->is_null() &&
                                                      report.environment.torch_threads > 0) {
      *threads = report.environment.torch_threads;
    }
    for (const auto& row : j.at("rows")) report.rows.push_back(row_from_json(row));
  } catch (const json::exception& error) {
    std::string what = error.what();
    throw UsageError(origin + " has a malformed field (" + first_line(what) +
                     "); regenerate it with --json");
  }
  return report;
}

std::string render_json(const RunReport& report) { return report_to_json(report).dump(1) + "\n"; }

RunReport read_report(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read " + path + "; check the path");
  json parsed;
  try {
    parsed = json::parse(in);
  } catch (const json::parse_error& error) {
    throw UsageError(path + " is not valid JSON (truncated? byte " + std::to_string(error.byte) +
                     "); re-run to regenerate it");
  }
  return report_from_json(parsed, path);
}

}  // namespace tracebench
