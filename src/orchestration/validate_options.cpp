#include "orchestration/validate_options.h"

#include <algorithm>
#include <filesystem>

#include "accuracy_check/training.h"
#include "artefacts/save_optimized.h"
#include "backends/registry.h"
#include "execution/shape_set.h"
#include "orchestration/launcher.h"
#include "settings/sweep.h"
#include "tracebench/error.h"
#include "util/text.h"

namespace tracebench {

namespace {

void validate_measurement_options(const RunOptions& options) {
  if (options.target_ci < 0 || options.target_ci >= 1) {
    throw UsageError("--target-ci must be in [0, 1) (a fraction, e.g. 0.01 for 1%), got " +
                     std::to_string(options.target_ci));
  }
  if (options.max_time_s < 0) throw UsageError("--max-time must be 0 (no cap) or more seconds");
  if (options.sample_order == SampleOrder::kBlocked && options.target_ci > 0) {
    throw UsageError(
        "--sample-order blocked takes a fixed --repeat; drop --target-ci or use "
        "--sample-order interleaved");
  }
  if (options.total_partitions < 1) {
    throw UsageError("--total-partitions must be at least 1, got " +
                     std::to_string(options.total_partitions));
  }
  if (options.partition_id < 0 || options.partition_id >= options.total_partitions) {
    throw UsageError("--partition-id must be in [0, " +
                     std::to_string(options.total_partitions - 1) + "] for --total-partitions " +
                     std::to_string(options.total_partitions) + ", got " +
                     std::to_string(options.partition_id));
  }
}

// --save-optimized and --save-outputs write one file per model and backend
// of an inference --performance run.
void validate_one_file_per_row(const std::string& flag, const RunOptions& options) {
  if (options.accuracy || options.mode == Mode::kTraining) {
    throw UsageError(flag + " saves what --performance measures for inference; drop " +
                     "--accuracy and --training");
  }
  if (sweep_points(options).size() > 1) {
    throw UsageError(flag + " saves one file per model and backend; give one " +
                     "--batch-size, one --threads and one --malloc, not a sweep");
  }
}

void validate_saved_files(const RunOptions& options) {
  if (!options.save_outputs_dir.empty()) validate_one_file_per_row("--save-outputs", options);
  if (options.save_optimized.empty()) return;
  validate_one_file_per_row("--save-optimized", options);
  if (names_one_saved_module(options.save_optimized) && options.backends.size() > 1) {
    throw UsageError("--save-optimized " + options.save_optimized +
                     " names one file, but there are " + std::to_string(options.backends.size()) +
                     " backends; give a directory to save one file per backend");
  }
}

}  // namespace

void validate(const RunOptions& options) {
  auto require_positive = [](const char* flag, int64_t value) {
    if (value < 1) {
      throw UsageError(std::string(flag) + " must be at least 1, got " + std::to_string(value));
    }
  };
  require_positive("--repeat", options.repeat);
  require_positive("--iterations-per-run", options.iterations_per_run);
  if (options.warmup < 0) throw UsageError("--warmup must be 0 or more");
  validate_sweep(options);
  validate_launcher(options);
  require_positive("--streams", options.streams);
  if (options.input_pool < 0) throw UsageError("--input-pool must be at least 1");
  if (options.eval_inputs < 1) throw UsageError("--eval-inputs must be at least 1");
  if (options.input_pool > 0 && options.randomize_input) {
    throw UsageError(
        "--input-pool and --randomize-input both choose each sample's inputs; give one");
  }
  if (!parse_shape_set(options.shape_set).empty()) {
    if (options.input_pool > 0 || !options.inputs_file.empty()) {
      throw UsageError(std::string("--shape-set and ") +
                       (options.inputs_file.empty() ? "--input-pool" : "--inputs") +
                       " both choose each sample's inputs; give one");
    }
    if (options.mode == Mode::kTraining) {
      throw UsageError("--shape-set measures inference; drop --training");
    }
  }
  if (!options.inputs_file.empty() && !options.input_shapes.empty()) {
    throw UsageError("--inputs and --input-shapes both give the inputs; give one");
  }
  if (!options.inputs_file.empty() && !std::filesystem::is_regular_file(options.inputs_file)) {
    throw UsageError("--inputs " + options.inputs_file +
                     ": no such file; write one with torch.save((x, mask), FILE)");
  }
  if (options.streams > 1 && (options.accuracy || options.mode == Mode::kTraining)) {
    throw UsageError("--streams measures concurrent inference; drop --accuracy and --training");
  }
  if (options.device != "cpu") {
    throw UsageError("device '" + options.device +
                     "' is not available: this LibTorch is CPU-only; use --devices cpu");
  }
  if (!(options.timeout_s > 0)) throw UsageError("--timeout must be more than 0 seconds");
  if (options.backends.empty()) throw UsageError("--backend is empty; name at least one backend");
  for (const auto& backend : options.backends) make_backend(backend);  // throws if unknown
  const auto known = backend_names();
  for (const auto& skipped : options.auto_skip) {
    if (std::find(known.begin(), known.end(), skipped) == known.end()) {
      throw UsageError("--auto-skip " + skipped + ": no such backend; choose from " +
                       join(known, ", "));
    }
  }
  validate_measurement_options(options);
  parse_optimizer(options.optimizer);  // likewise
  validate_saved_files(options);
  if (!options.profile_dir.empty() && options.accuracy) {
    throw UsageError("--profile profiles what --performance measures; drop --accuracy");
  }
}

}  // namespace tracebench
