#pragma once
// What a row that ran below float32 costs in accuracy: its outputs on an
// evaluation set against float32 eager's (accuracy/precision_cost.h), in the
// row's sqnr_db and top1_agreement columns.
//
// The set is --eval-inputs input sets: the --inputs file's first ones, or the
// example inputs' float tensors redrawn from a seed stream of its own, apart
// from the timed samples' (execution/input_pool.h) and from any calibration set.

#include <ATen/core/ivalue.h>

#include <memory>
#include <vector>

#include "report/result_row.h"
#include "settings/model_run.h"
#include "settings/run_options.h"
#include "sources/load_model.h"

namespace tracebench {

/// Whether some row of `run` may compute below float32: --bfloat16 or --amp,
/// a backend that lowers precision itself, or auto allowed to choose one
/// (--auto-tolerance).
bool may_run_below_float32(const ModelRun& run);

/// What a model's rows below float32 are given, made once per model: the
/// evaluation set they are scored on (and `auto` checks a budget by measure
/// on), and the sets a static int8 backend calibrates on.
struct ReducedPrecisionSets {
  std::shared_ptr<const EvaluationSet> evaluation;  // null: none made
  std::vector<std::vector<c10::IValue>> calibration;
  /// Sets CompileOptions::evaluation_set and calibration_inputs.
  void give_to(CompileOptions& compile_options) const;
};

/// The evaluation set (--eval-inputs sets: the --inputs file's first ones, or
/// seeded draws) with float32 eager's outputs on it, and the calibration sets
/// (the --inputs file's sets after those, else kCalibrationSets seeded draws).
/// `loaded.model` must still be float32, before the run casts it; called
/// under the inference no-grad guard. Throws what eager throws on the set.
ReducedPrecisionSets make_reduced_precision_sets(LoadedModel& loaded, const RunOptions& options);

/// How many sets calibrate static int8 where --inputs gives none: ONNX
/// Runtime's MinMax ranges from 8 sets of random inputs kept resnet18 at 27
/// dB, per-channel scales at 28 (2026-12-07).
inline constexpr size_t kCalibrationSets = 8;

/// What `compiled`, compiled by `backend`, computes in: what it says it ran,
/// else its backend's (auto's pick's) numerics.
Numerics ran_numerics(const std::string& backend, const CompiledModel& compiled);

/// The precision `row` ran at: what `compiled` says its compute ran in, else
/// its backend's (auto's pick's) numerics, when that is below float32 (bf16,
/// int8); else the run's (fp32, bf16, amp).
std::string ran_precision(const ResultRow& row, const CompiledModel& compiled);

/// Sets row.ran_precision from `compiled` and, below float32 with an
/// evaluation set, row.sqnr_db and row.top1_agreement from `compiled`'s
/// outputs on the set (its inputs cast to `dtype`); a figure that cannot be
/// had leaves its cell empty and the row says why (precision_cost_missing).
/// For a row whose backend ran: `compiled` is what ran it.
void add_precision_cost(ResultRow& row, CompiledModel& compiled, const EvaluationSet* set,
                        c10::ScalarType dtype);

}  // namespace tracebench
