#include "accuracy_check/evaluation_set.h"

#include <algorithm>
#include <cmath>

#include "accuracy/accuracy_budget.h"
#include "accuracy/precision_cost.h"
#include "backends/registry.h"
#include "execution/execution_settings.h"
#include "execution/input_pool.h"
#include "execution/status_rows.h"
#include "util/error_text.h"
#include "util/tensor_tree.h"
#include "util/text.h"

namespace tracebench {

namespace {

// Shifts the evaluation set's seeds away from the timed pool's, which are
// seed + 7919 (i + 1) (input_pool.cpp): no multiple of 7919 reaches it, so the
// two sets share no draw.
constexpr uint64_t kEvaluationSeedOffset = 1000003;
// The calibration set's, apart from both: 2000003 - 1000003 is no multiple of
// 7919 either.
constexpr uint64_t kCalibrationSeedOffset = 2000003;

void score_precision_cost(ResultRow& row, CompiledModel& compiled, const EvaluationSet& set,
                          c10::ScalarType dtype) {
  std::vector<c10::IValue> outputs;
  try {
    for (const auto& inputs : set.inputs)
      outputs.push_back(compiled.run(cast_inputs(inputs, dtype)));
  } catch (const std::exception& error) {
    row.add_warning("precision_cost_missing",
                    row.backend + ": no accuracy cost: the evaluation set failed to run: " +
                        describe_error(error));
    return;
  }
  row.sqnr_db = sqnr_db(set.fp32_outputs, outputs);
  if (std::isnan(row.sqnr_db)) {
    row.add_warning("precision_cost_missing",
                    row.backend + ": no sqnr: no floating-point output to compare with float32's");
  }
  const auto top1 = top1_agreement(set.fp32_outputs, outputs);
  row.top1_agreement = top1.percent;
  if (!top1.why_not.empty())
    row.add_warning("precision_cost_missing", row.backend + ": " + top1.why_not);
}

EvaluationSet evaluation_set(LoadedModel& loaded, const RunOptions& options) {
  EvaluationSet set;
  const auto wanted = static_cast<size_t>(options.eval_inputs);
  if (!loaded.input_sets.empty()) {
    const size_t count = std::min(wanted, loaded.input_sets.size());
    set.inputs.assign(loaded.input_sets.begin(), loaded.input_sets.begin() + count);
  } else {
    for (size_t i = 0; i < wanted; ++i) {
      set.inputs.push_back(randomized_inputs(loaded.inputs, options.seed + kEvaluationSeedOffset,
                                             static_cast<int64_t>(i)));
    }
  }
  for (const auto& inputs : set.inputs) set.fp32_outputs.push_back(loaded.model->forward(inputs));
  return set;
}

std::vector<std::vector<c10::IValue>> calibration_sets(const LoadedModel& loaded,
                                                       const RunOptions& options) {
  const auto evaluated = static_cast<size_t>(options.eval_inputs);
  if (loaded.input_sets.size() > evaluated) {
    return {loaded.input_sets.begin() + evaluated, loaded.input_sets.end()};
  }
  std::vector<std::vector<c10::IValue>> sets;
  for (size_t i = 0; i < kCalibrationSets; ++i) {
    sets.push_back(randomized_inputs(loaded.inputs, options.seed + kCalibrationSeedOffset,
                                     static_cast<int64_t>(i)));
  }
  return sets;
}

}  // namespace

bool may_run_below_float32(const ModelRun& run) {
  const RunOptions& options = run.request;
  if (options.mode != Mode::kInference) return false;
  if (options.precision != Precision::kFloat32) return true;
  for (const auto& backend : run.backends) {
    if (backend == "auto" ? options.auto_tolerance.loosest != Numerics::kExact
                          : backend_numerics(backend) != Numerics::kExact) {
      return true;
    }
  }
  return false;
}

void ReducedPrecisionSets::give_to(CompileOptions& compile_options) const {
  compile_options.evaluation_set = evaluation;
  compile_options.calibration_inputs = calibration;
}

ReducedPrecisionSets make_reduced_precision_sets(LoadedModel& loaded, const RunOptions& options) {
  ReducedPrecisionSets sets;
  sets.evaluation = std::make_shared<const EvaluationSet>(evaluation_set(loaded, options));
  sets.calibration = calibration_sets(loaded, options);
  return sets;
}

Numerics ran_numerics(const std::string& backend, const CompiledModel& compiled) {
  return compiled.numerics_that_ran().value_or(
      backend_numerics(compiled.chosen().empty() ? backend : compiled.chosen()));
}

std::string ran_precision(const ResultRow& row, const CompiledModel& compiled) {
  const Numerics numerics = ran_numerics(row.backend, compiled);
  return numerics == Numerics::kExact ? row.precision : numerics_label(numerics);
}

void add_precision_cost(ResultRow& row, CompiledModel& compiled, const EvaluationSet* set,
                        c10::ScalarType dtype) {
  row.ran_precision = ran_precision(row, compiled);
  // No evaluation set: training, or no backend of the run lowers precision.
  if (!row.ran_below_float32() || set == nullptr) return;
  score_precision_cost(row, compiled, *set, dtype);
}

}  // namespace tracebench
