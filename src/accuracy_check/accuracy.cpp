#include "accuracy_check/accuracy.h"

#include <memory>
#include <optional>
#include <stdexcept>

#include "accuracy/output_comparison.h"
#include "accuracy/tolerance.h"
#include "accuracy_check/evaluation_set.h"
#include "accuracy_check/training.h"
#include "backends/registry.h"
#include "execution/child_phase.h"
#include "execution/execution_settings.h"
#include "execution/input_pool.h"
#include "execution/shape_set.h"
#include "execution/status_rows.h"
#include "screening/model_checks.h"
#include "util/error_text.h"
#include "util/tensor_tree.h"

namespace tracebench {

namespace {

constexpr int kTrainingIterations = 2;  // so the check sees an updated model train again

c10::IValue as_tuple(std::vector<c10::IValue> elements) {
  return c10::ivalue::Tuple::create(std::move(elements));
}

// The inputs the check calls the model with: the example inputs, or one set
// per --shape-set shape, each with --randomize-input's fresh values if asked.
std::vector<std::vector<c10::IValue>> checked_input_sets(const LoadedModel& loaded,
                                                         const RunOptions& options,
                                                         c10::ScalarType dtype) {
  const ShapeSet shapes = parse_shape_set(options.shape_set);
  auto sets = shapes.empty() ? std::vector<std::vector<c10::IValue>>{loaded.inputs}
                             : inputs_at_each_size(loaded.inputs, shapes);
  // --randomize-input: compiled on the example inputs, checked on others, so
  // a trace that baked in one branch of the model's control flow is caught.
  for (auto& set : sets) {
    if (options.randomize_input) set = randomized_inputs(set, options.seed, 0);
    set = cast_inputs(set, dtype);
  }
  return sets;
}

// Runs `backend` on a fresh copy of the model in `dtype` and returns what is
// compared: the outputs (inference; with a shape set, a tuple of each shape's
// outputs), or the last iteration's outputs and loss plus every parameter and
// gradient (training). `row`, when given, receives what the compiled model
// says of itself (auto's pick, its warnings) and, below float32, its accuracy
// cost on `reduced`'s evaluation set as a performance row would.
c10::IValue run_once(Backend& backend, LoadedModel& loaded, const ModelRun& run,
                     c10::ScalarType dtype, ResultRow* row = nullptr,
                     const ReducedPrecisionSets& reduced = {}) {
  const RunOptions& options = run.request;
  auto model = loaded.reload();
  cast_model(*model, dtype);
  const auto inputs = cast_inputs(loaded.inputs, dtype);
  const auto call_sets = checked_input_sets(loaded, options, dtype);
  AutocastScope autocast(dtype == torch::kFloat64 ? Precision::kFloat32 : options.precision);
  auto compile_options = compile_options_for(run, inputs);
  reduced.give_to(compile_options);
  torch::manual_seed(options.seed);  // dropout and other random ops draw the same numbers

  if (options.mode == Mode::kInference) {
    torch::NoGradGuard no_grad;
    model->set_training(false);
    for (auto& tensor : model->tensors()) tensor.requires_grad_(false);
    const auto compiled = backend.compile(*model, compile_options);
    std::vector<c10::IValue> outputs;
    const ShapeSet shapes = parse_shape_set(options.shape_set);
    for (size_t set = 0; set < call_sets.size(); ++set) {
      try {
        outputs.push_back(compiled->run(call_sets[set]));
      } catch (const std::exception& error) {
        if (shapes.empty()) throw;
        throw std::runtime_error(shapes.failed_at(set) + describe_error(error));
      }
    }
    if (row) {
      record_compiled_model(*row, *compiled);
      add_precision_cost(*row, *compiled, reduced.evaluation.get(), dtype);
    }
    return outputs.size() == 1 ? outputs.front() : as_tuple(std::move(outputs));
  }
  TrainingIteration iteration(backend, std::move(model), compile_options,
                              parse_optimizer(options.optimizer), Dropout::kOff);
  c10::IValue last;
  for (int i = 0; i < kTrainingIterations; ++i) last = iteration.run(call_sets.front());
  if (row) record_compiled_model(*row, iteration);
  std::vector<c10::IValue> compared = {last};
  for (auto& tensor : iteration.parameters_and_gradients()) compared.emplace_back(tensor);
  return as_tuple(std::move(compared));
}

// The compared leaves' names: with a shape set, each output's name after its
// shape's ("batch=4 logits").
std::vector<std::string> compared_names(const LoadedModel& loaded, const RunOptions& options) {
  const ShapeSet shapes = parse_shape_set(options.shape_set);
  if (shapes.empty()) return loaded.output_names;
  std::vector<std::string> names;
  for (size_t set = 0; set < shapes.sizes.size(); ++set) {
    for (const auto& name : loaded.output_names) names.push_back(shapes.label(set) + " " + name);
  }
  return names;
}

ResultRow accuracy_row(const LoadedModel& loaded, const ModelRun& run, const std::string& backend) {
  ResultRow row = row_for(loaded.name, backend, run);
  row.batch_size = loaded.batch_size;
  return row;
}

}  // namespace

std::vector<ResultRow> check_accuracy(LoadedModel& loaded, const ModelRun& run) {
  const RunOptions& options = run.request;
  std::vector<ResultRow> rows;
  for (const auto& backend : run.backends) rows.push_back(accuracy_row(loaded, run, backend));
  auto fail_all = [&](const char* status, const std::string& error) {
    for (auto& row : rows) {
      row.status = status;
      row.error = error;
    }
    return rows;
  };

  auto eager = make_backend("eager");
  const auto dtype = storage_dtype(options.precision);
  c10::IValue reference, repeat, fp64_reference;
  publish_child_phase(ChildPhase::kRunning, "eager", /*baseline=*/true);
  try {
    reference = run_once(*eager, loaded, run, dtype);
    repeat = run_once(*eager, loaded, run, dtype);
  } catch (const std::exception& error) {
    return fail_all(status::kEagerFailToRun, describe_error(error));
  }
  if (!compare_outputs(reference, repeat, c10::IValue(), Tolerance{0, 1, false}).same) {
    return fail_all(status::kEagerTwoRunsDiffer, "two identically seeded eager runs differ");
  }
  try {
    fp64_reference = run_once(*eager, loaded, run, torch::kFloat64);
  } catch (const std::exception&) {
    // Without the fp64 truth only the allclose part of the rule applies.
  }
  // The rows below float32 carry what it cost, as in --performance. The
  // loaded model is still float32: each run above cast a fresh copy.
  ReducedPrecisionSets reduced;
  if (may_run_below_float32(run)) {  // inference only
    torch::NoGradGuard no_grad;
    loaded.model->set_training(false);
    try {
      reduced = make_reduced_precision_sets(loaded, options);
    } catch (const std::exception& error) {
      for (auto& row : rows) {
        row.add_warning("precision_cost_missing",
                        "no evaluation set: eager failed on it: " + describe_error(error));
      }
    }
  }

  const auto names = compared_names(loaded, options);
  for (auto& row : rows) {
    publish_child_phase(ChildPhase::kRunning, row.backend);
    try {
      auto backend = make_backend(row.backend);
      const auto unsupported = unsupported_reason(*backend, options.mode, options.precision);
      if (!unsupported.empty()) {
        row.status = status::kUnsupported;
        row.error = unsupported;
        continue;
      }
      const auto actual = run_once(*backend, loaded, run, dtype, &row, reduced);
      const auto tolerance =
          tolerance_for(loaded.name, options.mode, options.precision, backend->numerics());
      const auto comparison = compare_outputs(reference, actual, fp64_reference, tolerance, names);
      if (!comparison.same) {
        row.status = status::kFailAccuracy;
        row.error = comparison.detail;
      }
      warn_if_control_flow_was_traced(row, *loaded.model, *backend);
      warn_of_dropped_outputs(row, loaded.dropped_outputs);
    } catch (const UnsupportedModel& error) {
      row.status = status::kUnsupported;
      row.error = error.what();
    } catch (const std::exception& error) {
      row.status = status::kFailToRun;
      row.error = describe_error(error);
    }
  }
  return rows;
}

}  // namespace tracebench
