#include "report/row_json.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace tracebench {

namespace {

nlohmann::json number(double value) {
  if (!std::isfinite(value)) return nullptr;
  return value;
}

double read_number(const nlohmann::json& object, const char* key, double fallback) {
  auto it = object.find(key);
  if (it == object.end()) return fallback;
  if (it->is_null()) return std::numeric_limits<double>::quiet_NaN();
  return it->get<double>();
}

std::vector<double> read_numbers(const nlohmann::json& object, const char* key) {
  std::vector<double> values;
  auto it = object.find(key);
  if (it == object.end()) return values;
  for (const auto& value : *it) {
    values.push_back(value.is_null() ? std::numeric_limits<double>::quiet_NaN()
                                     : value.get<double>());
  }
  return values;
}

template <typename T>
void read(const nlohmann::json& object, const char* key, T& field) {
  auto it = object.find(key);
  if (it != object.end() && !it->is_null()) field = it->get<T>();
}

}  // namespace

std::string row_to_json_line(const ResultRow& row) {
  nlohmann::json object;
  object["device"] = row.device;
  object["mode"] = row.mode;
  object["model"] = row.model;
  object["backend"] = row.backend;
  object["batch_size"] = row.batch_size;
  object["status"] = row.status;
  object["error"] = row.error;
  object["speedup"] = number(row.speedup);
  object["p_value"] = number(row.p_value);
  object["abs_latency_ms"] = number(row.abs_latency_ms);
  object["eager_latency_ms"] = number(row.eager_latency_ms);
  object["compilation_latency_s"] = number(row.compilation_latency_s);
  auto& samples = object["samples_s"] = nlohmann::json::array();
  for (double s : row.samples_s) samples.push_back(number(s));
  auto& eager_samples = object["eager_samples_s"] = nlohmann::json::array();
  for (double s : row.eager_samples_s) eager_samples.push_back(number(s));
  auto& counters = object["counters"] = nlohmann::json::object();
  for (const auto& [name, value] : row.counters) counters[name] = number(value);
  // Replace, not throw, on invalid UTF-8 in an error message.
  return object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

ResultRow row_from_json_line(const std::string& line) {
  nlohmann::json object;
  try {
    object = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception& error) {
    throw std::runtime_error(std::string("bad row line: ") + error.what());
  }
  if (!object.is_object()) throw std::runtime_error("bad row line: not a JSON object");
  ResultRow row;
  try {
    read(object, "device", row.device);
    read(object, "mode", row.mode);
    read(object, "model", row.model);
    read(object, "backend", row.backend);
    read(object, "batch_size", row.batch_size);
    read(object, "status", row.status);
    read(object, "error", row.error);
    row.speedup = read_number(object, "speedup", row.speedup);
    row.p_value = read_number(object, "p_value", row.p_value);
    row.abs_latency_ms = read_number(object, "abs_latency_ms", row.abs_latency_ms);
    row.eager_latency_ms = read_number(object, "eager_latency_ms", row.eager_latency_ms);
    row.compilation_latency_s =
        read_number(object, "compilation_latency_s", row.compilation_latency_s);
    row.samples_s = read_numbers(object, "samples_s");
    row.eager_samples_s = read_numbers(object, "eager_samples_s");
    if (auto it = object.find("counters"); it != object.end() && it->is_object()) {
      for (const auto& [name, value] : it->items()) {
        row.counters[name] =
            value.is_null() ? std::numeric_limits<double>::quiet_NaN() : value.get<double>();
      }
    }
  } catch (const nlohmann::json::exception& error) {
    throw std::runtime_error(std::string("bad row line: ") + error.what());
  }
  return row;
}

}  // namespace tracebench
