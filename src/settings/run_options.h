#pragma once
// Everything a run is asked to do, as a plain struct with defaults: the
// request. The CLI fills it (settings/setting_fields.h) and completes it once
// (app/request.h); after that it is never edited: what each model runs with
// is resolved from it (settings/model_run.h). validate()
// (orchestration/validate_options.h) turns nonsense into a UsageError before
// any work.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tracebench/backend.h"

namespace tracebench {

/// How the timed samples of eager and the backends follow each other.
enum class SampleOrder {
  /// Every repetition gives each participant one turn, in a shuffled order, so
  /// that drift in machine load hits all alike (the default).
  kInterleaved,
  /// Each participant takes all its samples in one block, as a process that
  /// runs only that model would: no other participant's call evicts its weights
  /// from the caches between two of its calls. For comparing with such a process.
  kBlocked,
};

struct RunOptions {
  /// --accuracy checks outputs; otherwise --performance measures speed.
  bool accuracy = false;
  Mode mode = Mode::kInference;
  Precision precision = Precision::kFloat32;
  std::string optimizer = "sgd";  // training only: sgd or adam
  /// --auto-tolerance: what the auto backend may give up for speed.
  AccuracyBudget auto_tolerance;
  /// Model specs from --only; empty means every built-in model.
  std::vector<std::string> only;
  std::vector<std::string> backends = {"eager"};
  std::vector<std::string> filters;   // -k: keep names matching any (case-insensitive)
  std::vector<std::string> excludes;  // -x: drop names matching any
  /// --batch-size 1,8 / --threads 1,2: every combination is measured, eager
  /// again at each; one value is a sweep of one point. Empty: the model's own
  /// batch size; LibTorch's thread count, or as many threads as --cpus names.
  /// The points, with their effective values: settings/sweep.h.
  std::vector<int64_t> batch_size_sweep;
  std::vector<int64_t> threads_sweep;
  /// --malloc glibc,jemalloc: the allocators a sweep measures with, like the
  /// two axes above (orchestration/launcher.h). Empty: inherited_allocator.
  std::vector<std::string> allocator_sweep;
  /// The allocator this process was started with (GLIBC_TUNABLES,
  /// LD_PRELOAD), which each model's process inherits without --malloc: a
  /// fact of the environment, which complete_request reads, not a flag.
  std::string inherited_allocator = "glibc";
  /// --streams: concurrent inference threads, each calling its own compiled
  /// instance with `threads` intra-op threads (performance/streams.h).
  int64_t streams = 1;
  std::string input_shapes;  // e.g. "1x3x224x224,1x10"
  /// --inputs: input sets saved by torch.save, instead of the example inputs;
  /// "" for none (sources/load_model.h).
  std::string inputs_file;
  /// --input-pool: how many input sets the samples cycle through (execution/input_pool.h);
  /// 0: every set of --inputs, else one.
  int64_t input_pool = 0;
  /// --shape-set: the shapes the samples draw from, "batch=1,2,4" or
  /// "dim1=32..512" (execution/shape_set.h); "" for the inputs' one shape.
  std::string shape_set;
  /// --eval-inputs: the input sets a row at a lower precision than float32 is
  /// scored on against float32 eager (accuracy_check/evaluation_set.h).
  int64_t eval_inputs = 16;
  int64_t repeat = 30;
  int64_t warmup = 3;
  int64_t iterations_per_run = 1;
  bool randomize_input = false;
  /// --flush-denormal: flush denormal floats to zero for the whole run.
  bool flush_denormal = false;
  std::string device = "cpu";
  uint64_t seed = 1337;

  // Launcher (orchestration/launcher.h).
  /// --cpus: the CPUs the run is bound to, as given ("0-3,6"); "" keeps the
  /// binding the process was started with.
  std::string cpus;
  /// --omp-wait: OMP_WAIT_POLICY of each model's process, passive or active;
  /// "" leaves libgomp's own policy.
  std::string omp_wait;
  /// --cooldown: seconds the machine rests before each model but the first.
  double cooldown_s = 0;

  // Robustness (docs/robustness.md): per-model child processes, resumable output.
  /// Run each model of a suite in a child process of its own (the CLI sets
  /// this unless --no-isolation; library callers run in-process by default).
  bool isolate = false;
  /// Seconds a model's child process may run before it is killed (row `timeout`).
  double timeout_s = 1800;
  /// Skip (model, backend) rows already in --output; append the rest.
  bool resume = false;
  /// Child mode: write the rows as JSON lines to this file instead of printing.
  std::string rows_to;
  /// Child mode: publish what the child is doing in this file (execution/child_phase.h).
  std::string phase_to;
  /// auto's candidates to leave out, as --auto-skip gives them; a model's run
  /// adds those that killed an earlier child of it (ModelRun::auto_skip).
  std::vector<std::string> auto_skip;
  /// The parsed flags a child process is started with (all but the selection
  /// and output flags, which the parent owns). Filled by complete_request.
  std::vector<std::string> child_args;
  /// Shared libraries or C++ sources registering extra backends.
  std::vector<std::string> backend_plugins;
  std::string weights;  // --weights: a state dict for the built-in model; empty: none
  /// --save-optimized: where each passing row's compiled model is written as
  /// TorchScript (artefacts/save_optimized.h); empty: nowhere.
  std::string save_optimized;
  /// --save-outputs: where each backend's outputs for the first input set are
  /// written for Python's torch.load (artefacts/save_outputs.h); empty: nowhere.
  std::string save_outputs_dir;
  /// --profile: after sampling, one untimed profiled call per backend, its
  /// Chrome trace written here (artefacts/profile_pass.h); empty: none.
  std::string profile_dir;

  // Measurement and reports (docs/reports.md).
  double target_ci = 0;    // --target-ci: > 0 stops adaptively; 0 keeps --repeat
  double max_time_s = 60;  // --max-time: sampling cap per model with --target-ci
  SampleOrder sample_order = SampleOrder::kInterleaved;  // --sample-order
  bool print_ci = false;                                 // --ci: the CI on the one-backend line too
  /// --percentiles: latency percentiles and throughput on the console, and a
  /// warning in each row whose sample count leaves a percentile empty.
  bool percentiles = false;
  bool print_warnings = false;  // --warnings: noise warnings on stderr even when not a terminal
  /// Report files by the flag that names them ("output" for the CSV, "json"):
  /// report/reporters.h lists the formats.
  std::map<std::string, std::string> report_files;
  int64_t total_partitions = 1;
  int64_t partition_id = 0;
  /// Where the two came from: "flags", "slurm" or "kubernetes" (orchestration/partition_source.h).
  std::string partition_source = "flags";
  /// The settings the user gave, as given (settings/setting_fields.h's
  /// requested_settings), recorded beside the effective ones; null for a
  /// library caller, which asks for everything it sets.
  nlohmann::json requested = nullptr;
};

/// "interleaved" or "blocked", as --sample-order takes them.
const char* sample_order_label(SampleOrder order);
/// "train" or "eval", as the dynamo runner labels a row's mode.
const char* mode_label(Mode mode);
/// "fp32", "bf16" or "amp": the precision a row was measured in.
const char* precision_label(Precision precision);

/// The file the report flag `flag` names; "" when it was not given.
const std::string& report_file(const RunOptions& options, const std::string& flag);

}  // namespace tracebench
