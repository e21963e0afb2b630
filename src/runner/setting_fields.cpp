#include "runner/setting_fields.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <map>
#include <type_traits>

#include "accuracy/accuracy_budget.h"
#include "report/reporters.h"
#include "runner/status_rows.h"
#include "runner/sweep.h"

namespace tracebench {

namespace {

using json = nlohmann::json;
using Declare = decltype(SettingFlag::declare);
using Record = decltype(SettingField::record);

// A flag (bool member) or an option taking a value, bound to the member.
template <typename Value>
Declare bound(Value RunOptions::*member) {
  return [member](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    if constexpr (std::is_same_v<Value, bool>) {
      return app.add_flag(flag.names, options.*member, flag.help);
    } else {
      return app.add_option(flag.names, options.*member, flag.help);
    }
  };
}

// An option taking a comma list (--backend eager,ofi), also repeatable.
template <typename Value>
Declare comma_list(std::vector<Value> RunOptions::*member) {
  return [member](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    return app.add_option(flag.names, options.*member, flag.help)->delimiter(',');
  };
}

// An option whose words name an enum's values (--sample-order blocked).
template <typename Value>
Declare named(Value RunOptions::*member, std::map<std::string, Value> names) {
  return [member, names](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    return app.add_option(flag.names, options.*member, flag.help)
        ->transform(CLI::CheckedTransformer(names, CLI::ignore_case));
  };
}

// --auto-tolerance: a numerics name or a budget by measure
// (accuracy/accuracy_budget.h); a text it cannot read is a usage error.
Declare accuracy_budget_option() {
  return [](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    return app.add_option_function<std::string>(
        flag.names,
        [&options](const std::string& text) {
          try {
            options.auto_tolerance = parse_accuracy_budget(text);
          } catch (const std::invalid_argument& error) {
            throw CLI::ValidationError("--auto-tolerance", error.what());
          }
        },
        flag.help);
  };
}

// A flag that sets the member to `value` (--training, --bfloat16).
template <typename Value>
Declare sets(Value RunOptions::*member, Value value) {
  return [member, value](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    return app.add_flag_callback(
        flag.names, [&options, member, value] { options.*member = value; }, flag.help);
  };
}

// A flag that only chooses (--performance, the default): the CLI reads its
// count. Flags without a variable take their description apart: under C++20
// (the PyTorch 2.x build) add_flag(name, description) is ambiguous in CLI11 2.3.
Declare chooses() {
  return [](CLI::App& app, RunOptions&, const SettingFlag& flag) {
    return app.add_flag(flag.names)->description(flag.help);
  };
}

// A report flag: the parent's alone, under its own --help heading.
Declare report_flag(bool RunOptions::*member) {
  return [member](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    return app.add_flag(flag.names, options.*member, flag.help)->group(kReportsGroup);
  };
}

// The child's plumbing: hidden from --help.
template <typename Value>
Declare internal(Value RunOptions::*member) {
  return [member](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
    return app.add_option(flag.names, options.*member)->group("");
  };
}

template <typename Value>
Record value_of(Value RunOptions::*member) {
  return [member](const RunOptions& options) { return json(options.*member); };
}

// A swept setting is its list, else its one value (null when unset).
template <typename Value>
json swept_or_single(const std::vector<Value>& sweep, std::optional<Value> value) {
  if (sweep.size() > 1) return sweep;
  if (sweep.size() == 1) value = sweep.front();
  return value ? json(*value) : json(nullptr);
}

// --output, --json, ...: one flag per report file format (report/reporters.h).
std::vector<SettingFlag> report_file_flags() {
  std::vector<SettingFlag> flags;
  for (const auto& format : report_file_formats()) {
    const std::string key = format.flag;
    flags.push_back({std::string("--") + format.flag, format.help,
                     [key](CLI::App& app, RunOptions& options, const SettingFlag& flag) {
                       return app.add_option(flag.names, options.report_files[key], flag.help)
                           ->type_name("FILE")
                           ->group(kReportsGroup);
                     }});
  }
  return flags;
}

json report_files_given(const RunOptions& options) {
  json files = json::object();
  for (const auto& [flag, path] : options.report_files) {
    if (!path.empty()) files[flag] = path;
  }
  return files;
}

constexpr auto kParent = SettingReach::kParent;
constexpr auto kChild = SettingReach::kChild;
constexpr auto kEachChild = SettingReach::kEachChild;
constexpr bool kChangesNumbers = true, kSameNumbers = false;
constexpr bool kSweepable = true, kOneValue = false;

std::vector<SettingField> make_setting_fields() {
  return {
      // What is measured.
      {"measure",
       {{"--performance", "Measure each backend's speedup over eager", chooses()},
        {"--accuracy", "Check each backend's outputs against eager and an fp64 reference",
         bound(&RunOptions::accuracy)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       [](const RunOptions& o) { return json(o.accuracy ? "accuracy" : "performance"); }},
      {"mode",
       {{"--training", "One training iteration (forward, loss, backward, optimizer step)",
         sets(&RunOptions::mode, Mode::kTraining)},
        {"--inference", "Inference (the default)", sets(&RunOptions::mode, Mode::kInference)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       [](const RunOptions& o) { return json(mode_label(o.mode)); }},
      {"precision",
       {{"--float32", "float32 parameters and inputs (the default)",
         sets(&RunOptions::precision, Precision::kFloat32)},
        {"--bfloat16", "Cast model and float inputs to bfloat16",
         sets(&RunOptions::precision, Precision::kBFloat16)},
        {"--amp", "CPU autocast to bfloat16 around every call",
         sets(&RunOptions::precision, Precision::kAmp)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       [](const RunOptions& o) { return json(precision_label(o.precision)); }},
      {"optimizer",
       {{"--optimizer", "Optimizer for --training: sgd or adam", bound(&RunOptions::optimizer)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       [](const RunOptions& o) {
         return o.mode == Mode::kTraining ? json(o.optimizer) : json(nullptr);
       }},
      // The parent writes it into each child's arguments with the candidates
      // that crashed an earlier child of the model (orchestration/isolation.cpp).
      {"auto_skip",
       {{"--auto-skip",
         "Backends --backend=auto leaves out of its candidates, comma-separated, where their "
         "compile costs more than the answer is worth (default: none; auto also leaves out one "
         "that crashed on the model, and its row says so)",
         comma_list(&RunOptions::auto_skip)}},
       kEachChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::auto_skip)},
      {"auto_tolerance",
       {{"--auto-tolerance",
         "What --backend=auto may give up for speed: by name the loosest arithmetic, exact "
         "(float32 rules), bf16 or int8; or by measure a budget on the evaluation set that any "
         "precision may keep: sqnr=DB, top1=PERCENT or both, comma-separated (sqnr=30,top1=99) "
         "(default: exact)",
         accuracy_budget_option()}},
       kChild,
       kChangesNumbers,  // auto runs another candidate under another budget
       kOneValue,
       [](const RunOptions& o) { return json(accuracy_budget_label(o.auto_tolerance)); }},

      // Which models and backends.
      {"only",
       {{"--only",
         "Model to run: a built-in NAME, or path:FILE,class:NAME for a class in a .cpp/.pt/.py "
         "file (relative paths are from the current directory); repeatable (default: every "
         "built-in model, narrowed by -k/-x)",
         bound(&RunOptions::only)}},
       kEachChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::only)},
      {"backends",
       {{"--backend", "Backends to compare with eager, comma-separated",
         comma_list(&RunOptions::backends)}},
       kEachChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::backends)},
      {"filters",
       {{"-k,--filter",
         "Keep built-in models whose name matches this regex (case-insensitive); repeatable "
         "(default: keep all)",
         bound(&RunOptions::filters)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::filters)},
      {"excludes",
       {{"-x,--exclude",
         "Drop built-in models whose name matches this regex; repeatable (default: none)",
         bound(&RunOptions::excludes)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::excludes)},

      // The inputs.
      {"batch_size",
       {{"--batch-size", "Batch size for built-in models (default: each model's own, see `list`)",
         bound(&RunOptions::batch_size_sweep)}},
       kEachChild,
       kChangesNumbers,
       kSweepable,
       [](const RunOptions& o) {
         return swept_or_single(o.batch_size_sweep, std::optional<int64_t>());
       }},
      {"input_shapes",
       {{"--input-shapes",
         "Float input shapes instead of get_example_inputs, e.g. 1x3x224x224,1x10 (default: the "
         "model's get_example_inputs)",
         bound(&RunOptions::input_shapes)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::input_shapes)},
      {"inputs",
       {{"--inputs",
         "Inputs saved by Python's torch.save: a tuple, list or dict of tensors (one per input, "
         "as get_example_inputs returns them), or a list of such sets; used for timing, "
         "verification and accuracy (default: the model's example inputs)",
         bound(&RunOptions::inputs_file)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::inputs_file)},
      {"input_pool",
       {{"--input-pool",
         "Cycle the samples through N input sets: the --inputs file's first N, or the example "
         "inputs and N-1 seeded variations, so caches do not flatter a backend (default: every "
         "set of --inputs, else one)",
         bound(&RunOptions::input_pool)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::input_pool)},
      {"eval_inputs",
       {{"--eval-inputs",
         "Score each row that ran below float32 (bf16, int8) on N input sets against float32 "
         "eager: the --inputs file's first N, else N seeded ones apart from the timed inputs; "
         "its sqnr_db and top1_agreement columns (default: 16)",
         bound(&RunOptions::eval_inputs)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::eval_inputs)},
      {"shape_set",
       {{"--shape-set",
         "Time each sample at a shape drawn (seeded) from a set, as a served model sees many: "
         "batch=1,2,4,8 or dimK=32..512 (a doubling range), every input tensor tiled or cut "
         "along that dimension; rows give each shape's median (default: the inputs' one shape)",
         bound(&RunOptions::shape_set)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::shape_set)},

      // How samples are taken.
      {"repeat",
       {{"-n,--repeat", "Timed samples per backend", bound(&RunOptions::repeat)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::repeat)},
      {"warmup",
       {{"--warmup", "Untimed calls per backend before sampling", bound(&RunOptions::warmup)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::warmup)},
      {"iterations_per_run",
       {{"--iterations-per-run", "Model calls inside one timed sample",
         bound(&RunOptions::iterations_per_run)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::iterations_per_run)},
      {"flush_denormal",
       {{"--flush-denormal",
         "Flush denormal floats to zero (x86 FTZ/DAZ) for the run: random weights can leave "
         "activations denormal, and then the timings measure denormal arithmetic",
         bound(&RunOptions::flush_denormal)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::flush_denormal)},
      {"randomize_input",
       {{"--randomize-input",
         "New random float inputs (same shapes) for every sample; integer inputs kept",
         bound(&RunOptions::randomize_input)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::randomize_input)},
      {"threads",
       {{"--threads",
         "Intra-op threads (default: LibTorch's choice); OpenBLAS gets one thread unless "
         "OPENBLAS_NUM_THREADS is set",
         bound(&RunOptions::threads_sweep)}},
       kEachChild,
       kChangesNumbers,
       kSweepable,
       [](const RunOptions& o) { return swept_or_single(o.threads_sweep, thread_counts(o)[0]); }},
      {"streams",
       {{"--streams",
         "Concurrent inference threads, each calling its own compiled instance with --threads "
         "intra-op threads; every request is timed (default: 1)",
         bound(&RunOptions::streams)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::streams)},
      {"device",
       {{"--devices", "Device to run on (this build: cpu)", bound(&RunOptions::device)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::device)},
      {"seed",
       {{"--seed", "Seed for parameters, inputs and the sample order", bound(&RunOptions::seed)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::seed)},
      {"weights",
       {{"--weights",
         "Load a built-in model's parameters from torch.save(model.state_dict(), FILE) "
         "(default: seeded initialization)",
         bound(&RunOptions::weights)}},
       kChild,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::weights)},

      // What a run saves beside its rows.
      {"save_optimized",
       {{"--save-optimized",
         "Write each measured backend's compiled model as TorchScript, loadable by "
         "torch.jit.load: FILE.pt for one model and backend, else a directory of "
         "MODEL.BACKEND.pt files; auto saves its winner (default: nothing saved)",
         bound(&RunOptions::save_optimized)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::save_optimized)},
      {"save_outputs",
       {{"--save-outputs",
         "Write what eager and each backend returned for the first input set (of --inputs, "
         "else the example inputs) as DIR/MODEL.BACKEND.pt, for Python's torch.load: a dict by "
         "output name where the model names its outputs (default: nothing saved)",
         bound(&RunOptions::save_outputs_dir)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::save_outputs_dir)},
      {"profile",
       {{"--profile",
         "After sampling, profile one more call per backend (LibTorch's op profiler, not "
         "timed): a Chrome trace DIR/MODEL.BACKEND.json for Perfetto, and the top 15 ops by "
         "self time in the JSON report (default: no profile)",
         bound(&RunOptions::profile_dir)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::profile_dir)},

      // Robustness (docs/robustness.md).
      {"timeout_s",
       {{"--timeout",
         "Seconds one model may take (load, compile, measure) in its own process before it is "
         "killed and reported as `timeout`",
         bound(&RunOptions::timeout_s)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::timeout_s)},
      {"isolated",
       {{"--no-isolation",
         "Run every model in this process (for debugging): a crash then ends the whole run, and "
         "--timeout does not apply",
         sets(&RunOptions::isolate, false)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::isolate)},
      {"resume",
       {{"--resume",
         "Keep the rows already in --output, run only the (model, backend) pairs missing, and "
         "append them",
         bound(&RunOptions::resume)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::resume)},
      {"backend_plugins",
       {{"--backend-plugin",
         "Shared library or C++ source registering backends with TRACEBENCH_REGISTER_BACKEND; "
         "repeatable (default: none)",
         bound(&RunOptions::backend_plugins)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::backend_plugins)},
      {nullptr,
       {{"--rows-to", "", internal(&RunOptions::rows_to)}},
       kEachChild,
       kSameNumbers,
       kOneValue,
       nullptr},
      {nullptr,
       {{"--phase-to", "", internal(&RunOptions::phase_to)}},
       kEachChild,
       kSameNumbers,
       kOneValue,
       nullptr},

      // The launcher (orchestration/launcher.h): the parent starts each model's process with these.
      {"cpus",
       {{"--cpus",
         "Bind the run and each model's process to these CPUs, e.g. 0-3,6 (sched_setaffinity); "
         "--threads then defaults to their number (default: the CPUs tracebench was started "
         "with)",
         bound(&RunOptions::cpus)}},
       kParent,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::cpus)},
      {"malloc",
       {{"--malloc",
         "Memory allocator of each model's process: glibc, hugetlb (glibc backing large blocks "
         "with huge pages), jemalloc or tcmalloc (Debian's, preloaded) (default: the one the "
         "environment gives: glibc, or what GLIBC_TUNABLES or LD_PRELOAD sets)",
         bound(&RunOptions::allocator_sweep)}},
       kParent,
       kChangesNumbers,
       kSweepable,
       [](const RunOptions& o) {
         return swept_or_single(o.allocator_sweep, std::optional(o.inherited_allocator));
       }},
      {"omp_wait",
       {{"--omp-wait",
         "OpenMP's wait policy in each model's process: passive (idle threads sleep) or active "
         "(they spin) (default: libgomp's own)",
         bound(&RunOptions::omp_wait)}},
       kParent,
       kChangesNumbers,
       kOneValue,
       value_of(&RunOptions::omp_wait)},
      {"cooldown_s",
       {{"--cooldown",
         "Seconds to rest before each model but the first, so one model's heat and clock "
         "changes do not carry into the next (default: 0)",
         bound(&RunOptions::cooldown_s)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::cooldown_s)},

      // Measurement (docs/statistics.md).
      {"target_ci",
       {{"--target-ci",
         "Adaptive stopping: sample each backend until its speedup's 95% CI half-width is "
         "within this fraction of the speedup (e.g. 0.01), at least 10 samples; 0 keeps the "
         "fixed --repeat",
         bound(&RunOptions::target_ci)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::target_ci)},
      {"max_time_s",
       {{"--max-time",
         "With --target-ci: stop sampling a model after this many seconds (0: no cap)",
         bound(&RunOptions::max_time_s)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::max_time_s)},
      {"sample_order",
       {{"--sample-order",
         "interleaved: every repetition times eager and each backend once, shuffled (the "
         "default); blocked: each takes all its samples in a row, as a process running only "
         "that model would",
         named(&RunOptions::sample_order,
               std::map<std::string, SampleOrder>{
                   {sample_order_label(SampleOrder::kInterleaved), SampleOrder::kInterleaved},
                   {sample_order_label(SampleOrder::kBlocked), SampleOrder::kBlocked}})}},
       kChild,
       kChangesNumbers,
       kOneValue,
       [](const RunOptions& o) { return json(sample_order_label(o.sample_order)); }},
      // A child's: the child that measures a row adds its percentile warnings.
      {"percentiles",
       {{"--percentiles",
         "Print p50/p90/p99/p99.9 latency and throughput on each line, and warn where -n is too "
         "small for a percentile (the CSV and JSON always have them)",
         bound(&RunOptions::percentiles)}},
       kChild,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::percentiles)},

      // Reports: the parent's alone, as each child would write the files too.
      {"ci",
       {{"--ci",
         "Print the speedup's 95% bootstrap CI on one-backend lines too (several backends "
         "always show it)",
         report_flag(&RunOptions::print_ci)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::print_ci)},
      {"warnings",
       {{"--warnings",
         "Print noise warnings on stderr even when it is not a terminal (they are always in the "
         "CSV/JSON)",
         report_flag(&RunOptions::print_warnings)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::print_warnings)},
      {"reports", report_file_flags(), kParent, kSameNumbers, kOneValue, report_files_given},

      // Partitions (docs/scale-out.md).
      {"total_partitions",
       {{"--total-partitions",
         "Split the sorted model list into this many contiguous chunks (default: a Slurm "
         "array's task count, else TRACEBENCH_TOTAL_PARTITIONS in a Kubernetes Indexed Job, "
         "else 1)",
         bound(&RunOptions::total_partitions)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::total_partitions)},
      {"partition_id",
       {{"--partition-id",
         "Run chunk I (0-based) of --total-partitions (default: the Slurm array task's or the "
         "Kubernetes Indexed Job's index, else 0)",
         bound(&RunOptions::partition_id)}},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::partition_id)},
      {"partition_source",
       {},
       kParent,
       kSameNumbers,
       kOneValue,
       value_of(&RunOptions::partition_source)},
  };
}

}  // namespace

const std::vector<SettingField>& setting_fields() {
  static const std::vector<SettingField> fields = make_setting_fields();
  return fields;
}

void declare_settings(CLI::App& app, RunOptions& options) {
  options.isolate = true;
  app.option_defaults()->always_capture_default();
  for (const auto& field : setting_fields()) {
    for (const auto& flag : field.flags) {
      CLI::Option* option = flag.declare(app, options, flag);
      if (field.sweepable) {
        option->delimiter(',');
        option->description(flag.help + "; a comma list measures each value, eager again at each");
      }
    }
  }
  // The flags of one setting that choose among its values exclude each other.
  app.get_option("--performance")->excludes(app.get_option("--accuracy"));
  app.get_option("--training")->excludes(app.get_option("--inference"));
  app.get_option("--float32")
      ->excludes(app.get_option("--bfloat16"))
      ->excludes(app.get_option("--amp"));
  app.get_option("--bfloat16")->excludes(app.get_option("--amp"));
}

std::vector<std::string> child_arguments(const CLI::App& app) {
  std::vector<std::string> args;
  for (const auto& field : setting_fields()) {
    if (field.reach != SettingReach::kChild) continue;
    for (const auto& flag : field.flags) {
      const CLI::Option* option = app.get_option_no_throw(flag.long_name());
      if (option == nullptr || option->count() == 0) continue;
      const std::string& name = option->get_lnames().front();
      if (option->get_type_size_max() == 0) {  // a flag
        for (size_t i = 0; i < option->count(); ++i) args.push_back("--" + name);
      } else {
        for (const auto& value : option->results()) args.push_back("--" + name + "=" + value);
      }
    }
  }
  return args;
}

json recorded_settings(const RunOptions& options) {
  json settings = json::object();
  for (const auto& field : setting_fields()) {
    if (field.json_key != nullptr) settings[field.json_key] = field.record(options);
  }
  return settings;
}

json requested_settings(const CLI::App& app, const RunOptions& options) {
  json requested = json::object();
  for (const auto& field : setting_fields()) {
    if (field.json_key == nullptr) continue;
    const bool given = std::any_of(field.flags.begin(), field.flags.end(), [&](const auto& flag) {
      const CLI::Option* option = app.get_option_no_throw(flag.long_name());
      return option != nullptr && option->count() > 0;
    });
    if (given) requested[field.json_key] = field.record(options);
  }
  return requested;
}

std::vector<std::string> settings_that_change_numbers() {
  std::vector<std::string> keys;
  for (const auto& field : setting_fields()) {
    if (field.changes_numbers) keys.push_back(field.json_key);
  }
  return keys;
}

}  // namespace tracebench
