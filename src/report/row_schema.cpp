#include "report/row_schema.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "report/row_figures.h"
#include "tracebench/counters.h"
#include "util/text.h"

namespace tracebench {

namespace {

using nlohmann::json;

// A number the CSV cannot hold (empty, or text) keeps the row's default.
bool parse_number(const std::string& text, double& value) {
  if (text.empty()) return false;
  try {
    size_t used = 0;
    const double parsed = std::stod(text, &used);
    if (used != text.size()) return false;
    value = parsed;
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

// How every number field writes a value: NaN (not measured) is an empty CSV
// cell and a JSON null; an infinity (sqnr_db of identical outputs) is "inf"
// or "-inf" in both, since JSON has no number for it.
std::string number_cell(double value) {
  return std::isnan(value) ? std::string() : printf_string("%.6f", value);
}

json number_json(double value) {
  if (std::isnan(value)) return json(nullptr);
  if (std::isinf(value)) return json(value > 0 ? "inf" : "-inf");
  return json(value);
}

// What number_json wrote, read back: a number, or an infinity's text.
double number_from_json(const json& value) {
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (text == "inf") return std::numeric_limits<double>::infinity();
    if (text == "-inf") return -std::numeric_limits<double>::infinity();
    throw std::invalid_argument("a number field holds \"" + text + "\"");
  }
  return value.get<double>();
}

RowField described(const char* csv_column, const char* json_key, const char* unit,
                   const char* html_heading) {
  RowField field;
  field.csv_column = csv_column;
  field.json_key = json_key;
  field.unit = unit;
  field.html_heading = html_heading;
  return field;
}

RowField text(const char* csv_column, const char* json_key, std::string ResultRow::*member,
              const char* html_heading = nullptr) {
  RowField field = described(csv_column, json_key, "", html_heading);
  field.to_text = [member](const ResultRow& row) { return row.*member; };
  field.from_text = [member](ResultRow& row, const std::string& cell) { row.*member = cell; };
  field.to_json = [member](const ResultRow& row) { return json(row.*member); };
  field.from_json = [member](ResultRow& row, const json& value) {
    row.*member = value.get<std::string>();
  };
  if (html_heading) {
    field.to_html = [member](const ResultRow& row) { return html_escape(row.*member); };
  }
  return field;
}

RowField integer(const char* csv_column, const char* json_key, int64_t ResultRow::*member,
                 const char* html_heading = nullptr) {
  RowField field = described(csv_column, json_key, "", html_heading);
  field.to_text = [member](const ResultRow& row) { return std::to_string(row.*member); };
  field.from_text = [member](ResultRow& row, const std::string& cell) {
    double value = 0;
    if (parse_number(cell, value) && value >= 0 && value < 9e18) {
      row.*member = static_cast<int64_t>(value);
    }
  };
  field.to_json = [member](const ResultRow& row) { return json(row.*member); };
  field.from_json = [member](ResultRow& row, const json& value) {
    row.*member = value.get<int64_t>();
  };
  if (html_heading) {
    field.to_html = [member](const ResultRow& row) { return std::to_string(row.*member); };
  }
  return field;
}

// NaN (not measured) is an empty CSV cell and a JSON null; either reads back
// as the row's default for the field.
RowField number(const char* csv_column, const char* json_key, const char* unit,
                double ResultRow::*member, const char* html_heading = nullptr,
                const char* html_format = "%.3f") {
  RowField field = described(csv_column, json_key, unit, html_heading);
  field.to_text = [member](const ResultRow& row) { return number_cell(row.*member); };
  field.from_text = [member](ResultRow& row, const std::string& cell) {
    parse_number(cell, row.*member);
  };
  field.to_json = [member](const ResultRow& row) { return number_json(row.*member); };
  field.from_json = [member](ResultRow& row, const json& value) {
    row.*member = number_from_json(value);
  };
  if (html_heading) {
    field.to_html = [member, html_format](const ResultRow& row) {
      return html_number(html_format, row.*member);
    };
  }
  return field;
}

RowField json_only(const char* json_key, const char* unit,
                   std::function<json(const ResultRow&)> to_json,
                   std::function<void(ResultRow&, const json&)> from_json) {
  RowField field = described(nullptr, json_key, unit, nullptr);
  field.to_json = std::move(to_json);
  field.from_json = std::move(from_json);
  return field;
}

template <typename T>
RowField json_only(const char* json_key, const char* unit, T ResultRow::*member) {
  return json_only(
      json_key, unit, [member](const ResultRow& row) { return json(row.*member); },
      [member](ResultRow& row, const json& value) { row.*member = value.get<T>(); });
}

// NaN (unknown) is a JSON null, as in number().
RowField json_only_number(const char* json_key, const char* unit, double ResultRow::*member) {
  return json_only(
      json_key, unit, [member](const ResultRow& row) { return number_json(row.*member); },
      [member](ResultRow& row, const json& value) { row.*member = number_from_json(value); });
}

// Stable codes in the CSV (high_cv;slow_start), codes with their messages in
// the JSON. A row read from the CSV has no messages: the code stands in.
RowField warnings() {
  RowField field = described("warnings", "warnings", "", nullptr);
  field.to_text = [](const ResultRow& row) { return join(row.warning_codes, ";"); };
  field.from_text = [](ResultRow& row, const std::string& cell) {
    row.warning_codes = split(cell, ';');
    row.warnings = row.warning_codes;
  };
  field.to_json = [](const ResultRow& row) {
    json list = json::array();
    for (size_t i = 0; i < row.warnings.size(); ++i) {
      list.push_back({{"code", i < row.warning_codes.size() ? row.warning_codes[i] : ""},
                      {"message", row.warnings[i]}});
    }
    return list;
  };
  field.from_json = [](ResultRow& row, const json& list) {
    for (const auto& warning : list) {
      row.add_warning(warning.at("code").get<std::string>(),
                      warning.at("message").get<std::string>());
    }
  };
  return field;
}

// Derived from the raw samples, so written but never read back.
RowField samples() {
  RowField field = described("samples", "samples", "", "samples");
  field.to_text = [](const ResultRow& row) { return std::to_string(row.samples()); };
  field.to_json = [](const ResultRow& row) { return json(row.samples()); };
  field.to_html = field.to_text;
  return field;
}

RowField confidence_interval_low() {
  RowField field = number("ci_low", "ci_low", "x", &ResultRow::ci_low, "95% CI");
  // One cell for the whole interval; ci_high has none of its own.
  field.to_html = [](const ResultRow& row) {
    return "[" + html_number("%.3f", row.ci_low) + ", " + html_number("%.3f", row.ci_high) + "]";
  };
  return field;
}

// A figure computed from the samples, so written but never read back (a row
// read from the CSV has no samples; the JSON's samples_s recomputes it).
RowField derived(const char* name, const char* unit, const char* html_heading,
                 const char* html_format, std::function<double(const ResultRow&)> value) {
  RowField field = described(name, name, unit, html_heading);
  field.to_text = [value](const ResultRow& row) { return number_cell(value(row)); };
  field.to_json = [value](const ResultRow& row) { return number_json(value(row)); };
  field.to_html = [value, html_format](const ResultRow& row) {
    return html_number(html_format, value(row));
  };
  return field;
}

// --profile's ops: [{"name", "calls", "self_ms", "share"}, ...], most self time first.
RowField top_ops() {
  return json_only(
      "top_ops", "ms",
      [](const ResultRow& row) {
        json ops = json::array();
        for (const auto& op : row.top_ops) {
          ops.push_back({{"name", op.name},
                         {"calls", op.calls},
                         {"self_ms", op.self_ms},
                         {"share", op.share}});
        }
        return ops;
      },
      [](ResultRow& row, const json& ops) {
        for (const auto& op : ops) {
          row.top_ops.push_back({op.at("name").get<std::string>(), op.at("calls").get<int64_t>(),
                                 op.at("self_ms").get<double>(), op.at("share").get<double>()});
        }
      });
}

// p50_latency ... p999_latency, ms per call, throughput, gflops and peak_share.
std::vector<RowField> latency_fields() {
  std::vector<RowField> fields;
  for (const auto& percentile : latency_percentiles()) {
    const double percent = percentile.percent;
    fields.push_back(
        derived(percentile.column, "ms", percentile.html_heading, "%.3f",
                [percent](const ResultRow& row) { return percentile_latency_ms(row, percent); }));
  }
  fields.push_back(derived("throughput", "samples/s", "throughput /s", "%.1f",
                           [](const ResultRow& row) { return throughput_per_s(row); }));
  fields.push_back(derived("gflops", "GFLOP/s", "GFLOP/s", "%.1f", achieved_gflops));
  fields.push_back(derived("peak_share", "", "peak share", "%.2f", peak_share));
  return fields;
}

// --shape-set's medians per shape: a map in the JSON ("batch=2": ms), one
// cell in the CSV ("batch=2:0.010400;batch=16:0.020400"), read back from both.
RowField shape_latencies() {
  RowField field = described("shape_latency", "shape_latency_ms", "ms", "per-shape ms");
  field.to_text = shape_latencies_cell;
  field.from_text = read_shape_latencies_cell;
  field.to_json = [](const ResultRow& row) { return json(row.shape_latency_ms); };
  field.from_json = [](ResultRow& row, const json& value) {
    row.shape_latency_ms = value.get<std::map<std::string, double>>();
  };
  // Narrow, so that the table stays within a window: "batch 1:0.005 8:0.007".
  field.to_html = [](const ResultRow& row) {
    std::string cell;
    for (const auto& [shape, ms] : shape_latencies_by_size(row)) {
      const auto equals = shape.find('=');
      if (cell.empty()) cell = shape.substr(0, equals);
      cell += " " + shape.substr(equals + 1) + ":" + printf_string("%.3f", ms);
    }
    return html_escape(cell);
  };
  return field;
}

// A backend's counter (CompiledModel::counters) as a column of its own; NaN
// (an empty cell) for a backend that does not count it.
RowField counted(const char* name, const char* unit, const char* html_heading,
                 const char* html_format, const char* counter) {
  return derived(name, unit, html_heading, html_format, [counter](const ResultRow& row) {
    const auto found = row.counters.find(counter);
    return found == row.counters.end() ? std::numeric_limits<double>::quiet_NaN() : found->second;
  });
}

std::vector<RowField> make_row_fields() {
  using R = ResultRow;
  std::vector<RowField> fields = {
      // The dynamo runner's columns, in its order.
      text("dev", "device", &R::device),
      text("name", "model", &R::model),
      integer("batch_size", "batch_size", &R::batch_size, "batch"),
      number("speedup", "speedup", "x", &R::speedup, "speedup", "%.3fx"),
      number("abs_latency", "abs_latency_ms", "ms", &R::abs_latency_ms, "latency ms"),
      number("compilation_latency", "compilation_latency_s", "s", &R::compilation_latency_s,
             "compile s"),
      number("compression_ratio", "compression_ratio", "x", &R::compression_ratio, "compression",
             "%.2f"),
      text("backend", "backend", &R::backend),
      number("p_value", "welch_p", "", &R::p_value, "Welch p"),
      number("eager_latency", "eager_latency_ms", "ms", &R::eager_latency_ms, "eager ms"),
      text("status", "status", &R::status),
      text("error", "error", &R::error),
      // tracebench's own.
      confidence_interval_low(),
      number("ci_high", "ci_high", "x", &R::ci_high),
      number("mann_whitney_p", "mann_whitney_p", "", &R::mann_whitney_p, "Mann-Whitney p"),
      samples(),
      integer("iterations_per_run", "iterations_per_run", &R::iterations_per_run),
      number("eager_peak_mem", "eager_peak_mem_mb", "MB", &R::eager_peak_mem_mb, "eager peak MB"),
      number("backend_peak_mem", "backend_peak_mem_mb", "MB", &R::backend_peak_mem_mb,
             "backend peak MB"),
      number("first_call_latency", "first_call_latency_s", "s", &R::first_call_latency_s,
             "first call s", "%.4f"),
      warnings(),
      text("mode", "mode", &R::mode, "mode"),
      text("precision", "precision", &R::precision, "precision"),
      text("chosen", "chosen", &R::chosen, "chosen"),
      // In the JSON only.
      json_only("samples_s", "s", &R::samples_s),  // every timed sample, per call
      json_only("eager_samples_s", "s", &R::eager_samples_s),
      json_only("counters", "", &R::counters),
      json_only_number("flops", "", &R::flops),
      json_only_number("peak_gflops", "GFLOP/s", &R::peak_gflops),
      json_only("profile_trace", "", &R::profile_trace),
      top_ops(),
  };
  // After the columns that were there before them, as CSV readers index by
  // position; before the JSON-only fields.
  const auto chosen = std::find_if(fields.begin(), fields.end(), [](const RowField& field) {
    return field.json_key == std::string("chosen");
  });
  auto added = latency_fields();
  // A sweep's other axes beside batch_size (settings/sweep.h): threads, malloc.
  added.push_back(integer("threads", "threads", &R::threads, "threads"));
  added.push_back(integer("streams", "streams", &R::streams, "streams"));
  added.push_back(text("malloc", "malloc", &R::allocator, "malloc"));
  added.push_back(text("runtime", "runtime", &R::runtime));
  added.push_back(text("runtime_settings", "runtime_settings", &R::runtime_settings));
  // --shape-set (execution/shape_set.h): each shape's median, and the graphs a
  // backend that specializes on shapes compiled or traced for them.
  added.push_back(shape_latencies());
  added.push_back(counted("graphs", "", "graphs", "%.0f", kGraphsCounter));
  added.push_back(
      counted("graph_compile_s", "s", "graphs' compile s", "%.3f", kGraphCompileSecondsCounter));
  // What a lower precision cost (accuracy_check/evaluation_set.h).
  added.push_back(text("ran_precision", "ran_precision", &R::ran_precision, "ran at"));
  added.push_back(number("sqnr_db", "sqnr_db", "dB", &R::sqnr_db, "SQNR dB", "%.1f"));
  added.push_back(
      number("top1_agreement", "top1_agreement", "%", &R::top1_agreement, "top-1 %", "%.1f"));
  fields.insert(chosen + 1, added.begin(), added.end());
  return fields;
}

}  // namespace

const std::vector<RowField>& row_fields() {
  static const std::vector<RowField> fields = make_row_fields();
  return fields;
}

const RowField& row_field(const std::string& json_key) {
  for (const auto& field : row_fields()) {
    if (field.json_key == json_key) return field;
  }
  throw std::logic_error("no row field with JSON key " + json_key);
}

std::vector<CsvColumn> csv_layout(bool accuracy) {
  std::vector<CsvColumn> columns;
  if (accuracy) {
    for (const auto& [name, json_key] : {std::pair{"dev", "device"},
                                         {"name", "model"},
                                         {"batch_size", "batch_size"},
                                         {"accuracy", "status"},
                                         {"backend", "backend"},
                                         {"detail", "error"}}) {
      columns.push_back({name, &row_field(json_key)});
    }
    return columns;
  }
  for (const auto& field : row_fields()) {
    if (field.csv_column) columns.push_back({field.csv_column, &field});
  }
  return columns;
}

}  // namespace tracebench
