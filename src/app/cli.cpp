#include "app/cli.h"

#include <c10/util/Exception.h>
#include <CLI/CLI.hpp>

#include "app/launcher_options.h"
#include "app/list_command.h"
#include "app/plugin_loader.h"
#include "app/report_commands.h"
#include "app/report_options.h"
#include "app/robustness_options.h"
#include "runner/isolation.h"
#include "runner/launcher.h"
#include "runner/suite.h"
#include "tracebench/error.h"

namespace tracebench {

namespace {

constexpr const char* kDescription =
    "tracebench: benchmark deep-learning models across execution backends.\n"
    "  tracebench --performance --only=path:model_collection.py,class:LinearModel --backend=eager\n"
    "  tracebench --performance --backend=eager,ts,ofi -k resnet18\n"
    "  tracebench list";

struct ModeFlags {
  bool performance = false, training = false, bfloat16 = false, amp = false;
};

// A sweep's axis (runner/sweep.h): one value, or a comma list of them.
void add_sweep_option(CLI::App& app, const std::string& name, std::vector<int64_t>& values,
                      const std::string& description) {
  app.add_option(name, values, description + "; a comma list (1,8) measures each, eager included")
      ->delimiter(',');
}

void add_run_options(CLI::App& app, RunOptions& options, ModeFlags& flags) {
  app.option_defaults()->always_capture_default();
  auto* performance =
      app.add_flag("--performance", flags.performance, "Measure each backend's speedup over eager");
  auto* accuracy = app.add_flag("--accuracy", options.accuracy,
                                "Check each backend's outputs against eager and an fp64 reference");
  performance->excludes(accuracy);
  auto* training = app.add_flag("--training", flags.training,
                                "One training iteration (forward, loss, backward, optimizer step)");
  // Flags without a variable take their description apart: under C++20 (the
  // PyTorch 2.x build) add_flag(name, description) is ambiguous in CLI11 2.3.
  training->excludes(app.add_flag("--inference")->description("Inference (the default)"));
  auto* float32 =
      app.add_flag("--float32")->description("float32 parameters and inputs (the default)");
  auto* bfloat16 =
      app.add_flag("--bfloat16", flags.bfloat16, "Cast model and float inputs to bfloat16");
  auto* amp = app.add_flag("--amp", flags.amp, "CPU autocast to bfloat16 around every call");
  float32->excludes(bfloat16)->excludes(amp);
  bfloat16->excludes(amp);
  app.add_option("--optimizer", options.optimizer, "Optimizer for --training: sgd or adam");
  app.add_option("--auto-tolerance", options.auto_tolerance,
                 "The loosest arithmetic --backend=auto may choose: exact (float32 rules, the "
                 "default), bf16 or int8")
      ->transform(
          CLI::CheckedTransformer(std::map<std::string, Numerics>{{"exact", Numerics::kExact},
                                                                  {"bf16", Numerics::kBFloat16},
                                                                  {"int8", Numerics::kInt8}},
                                  CLI::ignore_case));
  app.add_option("--only", options.only,
                 "Model to run: a built-in NAME, or path:FILE,class:NAME for a class in a "
                 ".cpp/.pt/.py file (relative paths are from the current directory); repeatable "
                 "(default: every built-in model, narrowed by -k/-x)");
  app.add_option("--backend", options.backends, "Backends to compare with eager, comma-separated")
      ->delimiter(',');
  app.add_option("-k,--filter", options.filters,
                 "Keep built-in models whose name matches this regex (case-insensitive); "
                 "repeatable (default: keep all)");
  app.add_option("-x,--exclude", options.excludes,
                 "Drop built-in models whose name matches this regex; repeatable (default: none)");
  add_sweep_option(app, "--batch-size", options.batch_size_sweep,
                   "Batch size for built-in models (default: each model's own, see `list`)");
  app.add_option("--input-shapes", options.input_shapes,
                 "Float input shapes instead of get_example_inputs, e.g. 1x3x224x224,1x10 "
                 "(default: the model's get_example_inputs)");
  app.add_option("--inputs", options.inputs_file,
                 "Inputs saved by Python's torch.save: a tuple, list or dict of tensors (one "
                 "per input, as get_example_inputs returns them), or a list of such sets; used "
                 "for timing, verification and accuracy (default: the model's example inputs)");
  app.add_option("--input-pool", options.input_pool,
                 "Cycle the samples through N input sets: the --inputs file's first N, or the "
                 "example inputs and N-1 seeded variations, so caches do not flatter a backend "
                 "(default: every set of --inputs, else one)");
  app.add_option("-n,--repeat", options.repeat, "Timed samples per backend");
  app.add_option("--warmup", options.warmup, "Untimed calls per backend before sampling");
  app.add_option("--iterations-per-run", options.iterations_per_run,
                 "Model calls inside one timed sample");
  app.add_flag("--flush-denormal", options.flush_denormal,
               "Flush denormal floats to zero (x86 FTZ/DAZ) for the run: random weights can leave "
               "activations denormal, and then the timings measure denormal arithmetic");
  app.add_flag("--randomize-input", options.randomize_input,
               "New random float inputs (same shapes) for every sample; integer inputs kept");
  add_sweep_option(app, "--threads", options.threads_sweep,
                   "Intra-op threads (default: LibTorch's choice); OpenBLAS gets one thread unless "
                   "OPENBLAS_NUM_THREADS is set");
  app.add_option("--streams", options.streams,
                 "Concurrent inference threads, each calling its own compiled instance with "
                 "--threads intra-op threads; every request is timed (default: 1)");
  app.add_option("--devices", options.device, "Device to run on (this build: cpu)");
  app.add_option("--seed", options.seed, "Seed for parameters, inputs and the sample order");
  app.add_option("--weights", options.weights,
                 "Load a built-in model's parameters from torch.save(model.state_dict(), FILE) "
                 "(default: seeded initialization)");
  app.add_option("--save-optimized", options.save_optimized,
                 "Write each measured backend's compiled model as TorchScript, loadable by "
                 "torch.jit.load: FILE.pt for one model and backend, else a directory of "
                 "MODEL.BACKEND.pt files; auto saves its winner (default: nothing saved)");
  app.add_option("--save-outputs", options.save_outputs_dir,
                 "Write what eager and each backend returned for the first input set (of "
                 "--inputs, else the example inputs) as DIR/MODEL.BACKEND.pt, for Python's "
                 "torch.load: a dict by output name where the model names its outputs "
                 "(default: nothing saved)");
  app.add_option("--profile", options.profile_dir,
                 "After sampling, profile one more call per backend (LibTorch's op profiler, "
                 "not timed): a Chrome trace DIR/MODEL.BACKEND.json for Perfetto, and the top 15 "
                 "ops by self time in the JSON report (default: no profile)");
}

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app(kDescription, "tracebench");
  RunOptions options;
  ModeFlags flags;
  add_run_options(app, options, flags);
  add_robustness_options(app, options);
  add_launcher_options(app, options);
  add_measurement_and_report_options(app, options);
  auto* list = app.add_subcommand("list", "List the built-in models and the backends");
  bool list_json = false;
  list->add_flag("--json", list_json, "Print the list as JSON");
  const ReportCommands report_commands(app);
  app.require_subcommand(0, 1);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    out << app.help();
    return 0;
  } catch (const CLI::ParseError& error) {
    err << "tracebench: error: " << error.what() << "; see tracebench --help" << std::endl;
    return 2;
  }

  try {
    for (const auto& plugin : options.backend_plugins) load_backend_plugin(plugin);
    if (list->parsed()) {
      print_model_and_backend_list(out, list_json);
      return 0;
    }
    if (auto exit_code = report_commands.run(out, err)) return *exit_code;
    if (!flags.performance && !options.accuracy) {
      throw UsageError("choose a mode: --performance or --accuracy (or run `tracebench list`)");
    }
    options.mode = flags.training ? Mode::kTraining : Mode::kInference;
    options.precision = flags.bfloat16 ? Precision::kBFloat16
                        : flags.amp    ? Precision::kAmp
                                       : Precision::kFloat32;
    options.child_args = child_arguments(app);
    if (!options.rows_to.empty()) return run_isolated_child(options);
    resolve_partition(app, options, err);
    bind_to_cpus(options);
    // Without --malloc, each model's process inherits this one's allocator
    // (GLIBC_TUNABLES, LD_PRELOAD): the run records and resumes by that one.
    if (options.allocator_sweep.empty()) options.allocator = allocator_in_use();
    const auto rows = run_suite(options, make_reporters(options, out, err), err);
    return exit_code_of(rows, options, err);
  } catch (const UsageError& error) {
    err << "tracebench: error: " << error.what() << std::endl;
    return 2;
  }
}

}  // namespace tracebench
