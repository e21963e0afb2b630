#include "runner/suite.h"

#include <torch/torch.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <regex>

#include "report/console.h"
#include "report/csv.h"
#include "runner/accuracy.h"
#include "runner/child_phase.h"
#include "runner/error_text.h"
#include "runner/isolation.h"
#include "runner/partition.h"
#include "runner/performance.h"
#include "runner/resume.h"
#include "runner/run_recorder.h"
#include "runner/status_rows.h"
#include "runner/process_settings.h"
#include "sources/load_model.h"
#include "tracebench/error.h"
#include "zoo/zoo.h"

namespace tracebench {

namespace {

std::vector<std::regex> compile_patterns(const std::vector<std::string>& patterns,
                                         const char* flag) {
  std::vector<std::regex> compiled;
  for (const auto& pattern : patterns) {
    try {
      compiled.emplace_back(pattern, std::regex::icase | std::regex::ECMAScript);
    } catch (const std::regex_error& error) {
      throw UsageError(std::string("bad regular expression '") + pattern + "' for " + flag + ": " +
                       error.what());
    }
  }
  return compiled;
}

bool matches_any(const std::string& name, const std::vector<std::regex>& patterns) {
  for (const auto& pattern : patterns) {
    if (std::regex_search(name, pattern)) return true;
  }
  return false;
}

std::vector<ResultRow> run_one_model(const ModelSpec& spec, const RunOptions& options) {
  LoadOptions load_options;
  load_options.batch_size = options.batch_size;
  load_options.weights = options.weights;
  if (!options.input_shapes.empty()) {
    load_options.input_shapes = parse_input_shapes(options.input_shapes);
  }
  load_options.seed = options.seed;  // same parameters in every run and for every backend
  LoadedModel loaded;
  publish_child_phase(ChildPhase::kLoading);
  try {
    loaded = load_model(spec, load_options);
  } catch (const UsageError&) {
    throw;
  } catch (const std::exception& error) {
    return status_rows(spec.name, options, status::kModelFailToLoad, describe_error(error));
  }
  return options.accuracy ? check_accuracy(loaded, options) : measure_performance(loaded, options);
}

}  // namespace

std::vector<ResultRow> run_model_in_process(const ModelSpec& spec, const RunOptions& options) {
  return run_one_model(spec, options);
}

std::vector<ModelSpec> select_models(const RunOptions& options) {
  std::vector<ModelSpec> specs;
  if (!options.only.empty()) {
    for (const auto& text : options.only) {
      specs.push_back(parse_model_spec(text, std::filesystem::current_path()));
    }
    return specs;
  }
  const auto keep = compile_patterns(options.filters, "-k/--filter");
  const auto drop = compile_patterns(options.excludes, "-x/--exclude");
  for (const auto& entry : zoo_models()) {
    if (!keep.empty() && !matches_any(entry.name, keep)) continue;
    if (matches_any(entry.name, drop)) continue;
    ModelSpec spec;
    spec.name = entry.name;
    specs.push_back(spec);
  }
  if (specs.empty()) {
    throw UsageError("no built-in model matches the -k/-x filters; see `tracebench list`");
  }
  return specs;
}

std::vector<ResultRow> run_suite(const RunOptions& options, std::ostream& out) {
  validate(options);
  const auto specs =
      partition_models(select_models(options), options.total_partitions, options.partition_id);
  apply_process_settings(options);
  // --resume: rows already in --output are kept, not rerun (runner/resume.h).
  ResumeState resume =
      options.resume ? prepare_resume(options.output, options.accuracy) : ResumeState{};
  std::unique_ptr<CsvWriter> csv;
  if (!options.output.empty()) {
    csv = std::make_unique<CsvWriter>(options.output, options.accuracy, options.resume);
  }

  RunRecorder recorder(options, specs.size(), std::cerr);

  const size_t backend_width = backend_column_width(options.backends);
  const bool with_ci = backend_width > 0 || options.print_ci;
  const bool isolate = options.isolate;
  std::vector<ResultRow> all_rows = resume.rows;
  for (const auto& spec : specs) {
    RunOptions todo = options;
    todo.backends = resume.missing_backends(spec.name, options.backends);
    if (todo.backends.empty()) continue;
    recorder.start_model(&spec - specs.data(), spec.name);
    std::vector<ResultRow> rows;
    try {
      rows = run_model(spec, todo, isolate);
    } catch (const UsageError& error) {
      // One model the user got wrong costs its rows, not the rest of the suite
      // (as in an isolated child). Alone, it is the run's one-line error.
      if (specs.size() == 1) throw;
      rows = status_rows(spec.name, todo, status::kModelFailToLoad, error.what());
    }
    for (auto& row : rows) {
      recorder.add(row);
      out << (options.accuracy ? format_accuracy_line(row, backend_width)
                               : format_result_line(row, backend_width, with_ci))
          << std::endl;
      if (csv) csv->write(row);
      all_rows.push_back(std::move(row));
    }
    recorder.finish_model();
  }
  if (options.accuracy) {
    out << format_pass_rate(all_rows) << std::endl;
  } else if (backend_width > 0) {
    out << "\n" << format_grid_table(all_rows, options.backends);
  }
  return all_rows;
}

int exit_code_of(const std::vector<ResultRow>& rows, const RunOptions& options, std::ostream& err) {
  std::vector<std::string> failed;
  for (const auto& row : rows) {
    if (row.status != status::kModelFailToLoad) continue;
    if (std::find(failed.begin(), failed.end(), row.model) == failed.end()) {
      failed.push_back(row.model);
    }
  }
  if (failed.empty()) return 0;
  std::string names;
  for (const auto& name : failed) names += (names.empty() ? "" : ", ") + name;
  err << "tracebench: error: " << failed.size() << " model(s) failed to load (" << names
      << "); fix them as their rows say, then "
      << (options.output.empty() ? "rerun them" : "rerun with --resume to run only them")
      << std::endl;
  return 2;
}

}  // namespace tracebench
