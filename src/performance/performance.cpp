#include "performance/performance.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>

#include "accuracy/output_comparison.h"
#include "accuracy/tolerance.h"
#include "accuracy_check/evaluation_set.h"
#include "accuracy_check/training.h"
#include "artefacts/profile_pass.h"
#include "artefacts/save_optimized.h"
#include "artefacts/save_outputs.h"
#include "backends/registry.h"
#include "execution/child_phase.h"
#include "execution/execution_settings.h"
#include "execution/input_pool.h"
#include "execution/shape_set.h"
#include "execution/status_rows.h"
#include "measure/flops.h"
#include "measure/memory.h"
#include "measure/quiet_threads.h"
#include "measure/statistics.h"
#include "performance/row_statistics.h"
#include "performance/sample_budget.h"
#include "performance/streams.h"
#include "report/row_figures.h"
#include "screening/model_checks.h"
#include "util/error_text.h"
#include "util/tensor_tree.h"
#include "util/text.h"

namespace tracebench {

namespace {

// One timed participant: the eager baseline or a requested backend.
struct Contender {
  std::string backend_name;
  std::unique_ptr<Backend> backend;
  std::unique_ptr<CompiledModel> compiled;
  // --streams: the other streams' instances, compiled the same way.
  std::vector<std::unique_ptr<CompiledModel>> other_streams;
  ResultRow* row = nullptr;  // nullptr for the baseline
  std::vector<double> samples;
  /// The input set of each sample (its --shape-set shape), in step with samples.
  std::vector<size_t> sample_sets;
  c10::IValue first_output;
  bool failed = false;
  std::string status = status::kFailToRun;  // when failed
  std::string error;
  double compile_seconds = 0;
  double first_call_seconds = std::numeric_limits<double>::quiet_NaN();
  MemoryPeak memory;
};

// Tells the parent of an isolated run which contender is in flight, so that
// a crash costs that backend only (execution/child_phase.h).
void publish(ChildPhase phase, const Contender& contender) {
  publish_child_phase(phase, contender.backend_name, contender.row == nullptr);
}

void fail(Contender& contender, const std::exception& error) {
  contender.failed = true;
  contender.error = describe_error(error);
}

// Inference compiles the shared model; training gives each contender a model
// of its own, since every iteration updates the parameters.
std::unique_ptr<CompiledModel> compile_for_mode(Backend& backend, LoadedModel& loaded,
                                                const CompileOptions& compile_options,
                                                const RunOptions& options) {
  if (options.mode == Mode::kInference) return backend.compile(*loaded.model, compile_options);
  auto model = loaded.reload();
  cast_model(*model, storage_dtype(options.precision));
  return std::make_unique<TrainingIteration>(backend, std::move(model), compile_options,
                                             parse_optimizer(options.optimizer));
}

void compile(Contender& contender, LoadedModel& loaded, const CompileOptions& compile_options,
             const RunOptions& options) {
  publish(ChildPhase::kCompiling, contender);
  try {
    contender.backend = make_backend(contender.backend_name);
    const auto unsupported =
        unsupported_reason(*contender.backend, options.mode, options.precision, options.streams);
    if (!unsupported.empty()) {
      contender.failed = true;
      contender.status = status::kUnsupported;
      contender.error = unsupported;
      return;
    }
    const auto start = std::chrono::steady_clock::now();
    contender.compiled = compile_for_mode(*contender.backend, loaded, compile_options, options);
    contender.compile_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } catch (const UnsupportedModel& error) {
    contender.failed = true;
    contender.status = status::kUnsupported;
    contender.error = error.what();
  } catch (const std::exception& error) {
    fail(contender, error);
  }
}

void warm_up(Contender& contender, const std::vector<c10::IValue>& inputs, int64_t calls) {
  if (contender.failed) return;
  try {
    contender.first_output = contender.compiled->run(inputs);
    for (int64_t i = 1; i < calls; ++i) contender.compiled->run(inputs);
  } catch (const std::exception& error) {
    fail(contender, error);
  }
}

// The first call after compiling, timed on its own: lazy backends compile here.
void first_call(Contender& contender, const std::vector<c10::IValue>& inputs) {
  if (contender.failed) return;
  publish(ChildPhase::kRunning, contender);
  try {
    contender.first_call_seconds = contender.compiled->seconds_per_call(inputs, 1);
  } catch (const std::exception& error) {
    fail(contender, error);
  }
}

// --streams: an instance per further stream, warmed up as the first was.
void compile_other_streams(Contender& contender, LoadedModel& loaded,
                           const CompileOptions& compile_options, const RunOptions& options) {
  if (contender.failed || options.streams < 2) return;
  publish(ChildPhase::kCompiling, contender);
  try {
    for (int64_t i = 1; i < options.streams; ++i) {
      auto instance = compile_for_mode(*contender.backend, loaded, compile_options, options);
      for (int64_t call = 0; call < std::max<int64_t>(options.warmup, 1); ++call) {
        instance->run(compile_options.example_inputs);
      }
      contender.other_streams.push_back(std::move(instance));
    }
  } catch (const std::exception& error) {
    fail(contender, error);
  }
}

// Peak tensor memory of one warm call, outside the timed region.
void measure_memory(Contender& contender, const std::vector<c10::IValue>& inputs) {
  if (contender.failed) return;
  try {
    contender.memory = measure_peak_memory([&] { contender.compiled->run(inputs); });
  } catch (const std::exception& error) {
    fail(contender, error);
  }
}

std::vector<const std::vector<double>*> sample_views(const std::vector<Contender>& contenders) {
  std::vector<const std::vector<double>*> views;
  for (const auto& contender : contenders) {
    views.push_back(contender.failed ? nullptr : &contender.samples);
  }
  return views;
}

// Memory, first call and uncertainty of a measured row.
void add_measurements(ResultRow& row, const Contender& contender, const Contender& eager,
                      uint64_t seed) {
  row.first_call_latency_s = contender.first_call_seconds;
  if (!row.passed()) return;
  if (contender.memory.counted && eager.memory.counted) {
    row.eager_peak_mem_mb = eager.memory.peak_bytes / 1e6;
    row.backend_peak_mem_mb = contender.memory.peak_bytes / 1e6;
    row.compression_ratio = contender.memory.peak_bytes > 0
                                ? static_cast<double>(eager.memory.peak_bytes) /
                                      static_cast<double>(contender.memory.peak_bytes)
                                : 0.0;  // the dynamo runner's value for a zero peak
  }
  add_row_statistics(row, seed);
}

// A speedup for a backend that computes something else means nothing: a
// contender whose outputs differ from eager's (see performance_check_tolerance,
// looser for one that ran below float32) fails as fail_accuracy, `where`
// naming the inputs that showed it.
void fail_if_outputs_differ(Contender& contender, const c10::IValue& expected,
                            const c10::IValue& actual, const std::vector<std::string>& output_names,
                            const std::string& where) {
  const auto tolerance =
      performance_check_tolerance(ran_numerics(contender.backend_name, *contender.compiled));
  const auto comparison = compare_outputs(expected, actual, c10::IValue(), tolerance, output_names);
  if (comparison.same) return;
  contender.failed = true;
  contender.status = status::kFailAccuracy;
  contender.error = where + ": " + comparison.detail;
}

void verify_against_eager(Contender& contender, const Contender& eager,
                          const std::vector<std::string>& output_names) {
  if (contender.failed || eager.failed) return;
  fail_if_outputs_differ(contender, eager.first_output, contender.first_output, output_names,
                         "not timed, outputs differ from eager");
}

// --shape-set: each contender's outputs at every shape against eager's, after
// sampling, so that retracing for a new shape stays inside the timed samples
// as in service. A graph that baked in the example's shape may run at another
// and compute something else; its row must not pass on its speed.
void verify_every_shape(std::vector<Contender>& contenders,
                        const std::vector<std::vector<c10::IValue>>& pool, const ShapeSet& shapes,
                        const std::vector<std::string>& output_names) {
  auto& eager = contenders[0];
  for (size_t set = 0; set < shapes.sizes.size() && !eager.failed; ++set) {
    c10::IValue expected;
    try {
      expected = eager.compiled->run(pool[set]);
    } catch (const std::exception& error) {
      fail(eager, error);
      return;
    }
    for (size_t i = 1; i < contenders.size(); ++i) {
      auto& contender = contenders[i];
      if (contender.failed) continue;
      try {
        fail_if_outputs_differ(contender, expected, contender.compiled->run(pool[set]),
                               output_names, "outputs differ from eager at " + shapes.label(set));
      } catch (const std::exception& error) {
        fail(contender, error);
      }
    }
  }
}

// Untimed calls each contender makes before a timed sample that follows
// another contender's: the most any contender asks for, eager included. When
// it is not zero, some contender computes on a thread pool other than
// LibTorch's OpenMP, and whichever contender comes next in the shuffled order
// would run while that pool's threads still spin: eager right after
// OpenVINO's or ONNX Runtime's call ran 1.5-2x its time alone, inflating every
// row's speedup over it. Such a sample then first waits for quiet threads
// (measure/quiet_threads.h), and the untimed call wakes the contender's own
// pool as a user's previous call would.
int64_t settling_calls(const std::vector<Contender>& contenders) {
  int64_t calls = 0;
  for (const auto& contender : contenders) {
    if (!contender.failed) calls = std::max(calls, contender.compiled->settling_calls());
  }
  return calls;
}

// What comes before a contender's sample. Interleaved, every turn follows
// another contender's: wait for quiet threads and make the settling calls.
// Blocked, a block starts the same way but with --warmup calls, as a user's
// loop starts (and as bench/peers.py's API side does), and the rest of the
// block runs back to back, its pool awake as after a user's previous call.
// Waiting and settling before each sample of a block left ONNX Runtime's
// worker ~5% slower than its own API's loop on alexnet at batch 1 (Machine
// D): once its pool had slept, its calls took ~100 ms to come back to speed
// (docs/peers.md).
struct SampleLead {
  bool quiet_first;       // wait until no other thread of this process spins
  int64_t untimed_calls;  // then these calls, then the timed sample
};

SampleLead sample_lead(bool blocked, bool follows_itself, int64_t settling, int64_t warmup) {
  if (!blocked) return {settling > 0, settling};
  if (follows_itself) return {false, 0};
  return {settling > 0, std::max(settling, warmup)};
}

void take_sample(Contender& contender, const std::vector<c10::IValue>& inputs, int64_t iterations,
                 const SampleLead& lead) {
  if (contender.failed) return;
  publish(ChildPhase::kSampling, contender);
  try {
    if (lead.quiet_first) wait_for_quiet_threads();
    for (int64_t i = 0; i < lead.untimed_calls; ++i) contender.compiled->run(inputs);
    if (contender.other_streams.empty()) {
      contender.samples.push_back(contender.compiled->seconds_per_call(inputs, iterations));
      return;
    }
    // One request per stream, all at once: each is a sample.
    std::vector<CompiledModel*> instances = {contender.compiled.get()};
    for (const auto& instance : contender.other_streams) instances.push_back(instance.get());
    const auto seconds = time_concurrent_requests(instances, inputs, iterations);
    contender.samples.insert(contender.samples.end(), seconds.begin(), seconds.end());
  } catch (const std::exception& error) {
    fail(contender, error);
  }
}

// Before another contender's turn: the threads the previous one computes on
// in another process (a worker's pool) stop spinning first.
void quiet_threads_elsewhere(Contender& previous) {
  if (previous.failed) return;
  try {
    previous.compiled->wait_for_quiet_threads_elsewhere();
    for (auto& instance : previous.other_streams) instance->wait_for_quiet_threads_elsewhere();
  } catch (const std::exception& error) {
    fail(previous, error);
  }
}

void summarize(ResultRow& row, const Contender& contender, const Contender& eager) {
  row.compilation_latency_s = contender.compile_seconds;
  if (eager.failed) {
    row.status = status::kEagerFailToRun;
    row.error = eager.error;
    return;
  }
  if (contender.failed) {
    row.status = contender.status;
    row.error = contender.error;
    return;
  }
  row.samples_s = contender.samples;
  row.eager_samples_s = eager.samples;
  row.abs_latency_ms = median(contender.samples) * 1e3;
  row.eager_latency_ms = median(eager.samples) * 1e3;
  row.speedup = row.eager_latency_ms / row.abs_latency_ms;
  row.p_value = welch_t_test(eager.samples, contender.samples).p_value;
  record_compiled_model(row, *contender.compiled);
}

// Below this many samples a shape's median can be its first call's retrace.
constexpr size_t kFewSamplesPerShape = 5;

// --shape-set: each shape's median, from the samples that drew it, and how
// many drew it (counters "samples_at.batch=4"), with a warning where they are
// too few for the median to be the steady state.
void record_shape_latencies(ResultRow& row, const Contender& contender, const ShapeSet& shapes) {
  std::vector<std::string> few;
  for (size_t set = 0; set < shapes.sizes.size(); ++set) {
    std::vector<double> at_shape;
    for (size_t i = 0; i < contender.samples.size(); ++i) {
      if (contender.sample_sets[i] == set) at_shape.push_back(contender.samples[i]);
    }
    const std::string label = shapes.label(set);
    row.counters["samples_at." + label] = static_cast<double>(at_shape.size());
    if (at_shape.size() < kFewSamplesPerShape) few.push_back(label);
    if (!at_shape.empty()) row.shape_latency_ms[label] = median(at_shape) * 1e3;
  }
  if (!few.empty()) {
    row.add_warning("few_shape_samples", row.backend + ": " + join(few, ", ") +
                                             " drawn fewer than " +
                                             std::to_string(kFewSamplesPerShape) +
                                             " times: a median there may hold a retrace; raise -n");
  }
}

// Outputs at the noise floor are compared with an absolute tolerance (see
// compare.h), and the rows say so: the timings may measure a degenerate model
// (random weights), and --weights gives it real ones.
void warn_about_degenerate_output(std::vector<ResultRow>& rows, const Contender& eager,
                                  const std::vector<std::string>& output_names) {
  if (eager.failed) return;
  const double tol = performance_check_tolerance().tol;
  const std::string leaf = noise_floor_output(eager.first_output, tol, output_names);
  if (leaf.empty()) return;
  char bound[32];
  std::snprintf(bound, sizeof bound, "%g", tol);
  for (auto& row : rows) {
    if (!row.passed()) continue;
    row.add_warning("degenerate_outputs",
                    "eager's " + leaf + " is at the noise floor (every |value| <= " + bound +
                        "), so it was checked with an absolute tolerance; random "
                        "weights? pass --weights");
  }
}

// Rows stay `pass` (the timings are valid), but a NaN or Inf in eager's first
// output is named in the error column, which the stderr reporter prints
// (docs/robustness.md).
void warn_about_non_finite_output(std::vector<ResultRow>& rows, const Contender& eager) {
  if (eager.failed) return;
  const std::string warning = non_finite_warning(eager.first_output);
  if (warning.empty()) return;
  for (auto& row : rows) {
    if (row.passed()) row.error = warning;
  }
}

// Denormal outputs mean denormal arithmetic inside, which x86 runs many times
// slower: the timings then measure that (mobilenet_v2 on random weights).
void warn_about_denormal_output(std::vector<ResultRow>& rows, const Contender& eager,
                                bool flushed) {
  if (eager.failed || flushed) return;
  const int64_t denormals = count_denormals(eager.first_output);
  if (denormals == 0) return;
  for (auto& row : rows) {
    if (!row.passed()) continue;
    row.add_warning("denormal_outputs",
                    std::string(kBaselineWarningMessagePrefix) + "output holds " +
                        std::to_string(denormals) +
                        " denormal values, so the timings include slow denormal arithmetic; "
                        "pass --weights for real weights, or --flush-denormal");
  }
}

// The FLOPs of one forward pass, for the rows' gflops and peak_share; NaN
// where the counter's trace fails (the rows are measured all the same).
double flops_per_call(Model& model, const std::vector<c10::IValue>& inputs) {
  try {
    return static_cast<double>(count_flops(model, inputs).flops);
  } catch (const std::exception&) {
    return std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace

// --save-outputs: every contender's first output, eager's included. A file
// that cannot be written warns on the rows it concerns; the timings stand.
void save_first_outputs(const std::vector<Contender>& contenders, std::vector<ResultRow>& rows,
                        const LoadedModel& loaded, const std::string& dir) {
  for (const auto& contender : contenders) {
    if (contender.failed) continue;
    try {
      save_outputs(contender.first_output, loaded.output_names,
                   saved_outputs_path(dir, loaded.name, contender.backend_name));
    } catch (const std::exception& error) {
      for (auto& row : rows) {
        if (contender.row != nullptr && &row != contender.row) continue;
        row.add_warning("outputs_not_saved",
                        contender.backend_name + ": --save-outputs: " + describe_error(error));
      }
    }
  }
}

std::vector<ResultRow> measure_performance(LoadedModel& loaded, const ModelRun& run) {
  const RunOptions& options = run.request;
  std::vector<ResultRow> rows(run.backends.size());
  std::vector<Contender> contenders(run.backends.size() + 1);
  contenders[0].backend_name = "eager";
  for (size_t i = 0; i < run.backends.size(); ++i) {
    rows[i] = row_for(loaded.name, run.backends[i], run);
    rows[i].batch_size = loaded.batch_size;
    contenders[i + 1].backend_name = run.backends[i];
    contenders[i + 1].row = &rows[i];
  }

  // Inference: no autograd state anywhere, and parameters can become constants.
  std::optional<torch::NoGradGuard> no_grad;
  if (options.mode == Mode::kInference) {
    no_grad.emplace();
    loaded.model->set_training(false);
    for (auto& tensor : loaded.model->tensors()) tensor.requires_grad_(false);
  }
  // Before the cast: the rows below float32 are scored against float32.
  ReducedPrecisionSets reduced;
  if (may_run_below_float32(run)) {
    try {
      reduced = make_reduced_precision_sets(loaded, options);
    } catch (const std::exception& error) {
      fail(contenders[0], error);  // eager cannot run the model: every row says so
    }
  }
  const auto dtype = storage_dtype(options.precision);
  cast_model(*loaded.model, dtype);
  const auto inputs = cast_inputs(loaded.inputs, dtype);
  if (options.mode == Mode::kInference) {
    const double flops = flops_per_call(*loaded.model, inputs);
    for (auto& row : rows) row.flops = flops;
  }
  AutocastScope autocast(options.precision);

  auto compile_options = compile_options_for(run, inputs);
  reduced.give_to(compile_options);
  for (auto& contender : contenders) {
    compile(contender, loaded, compile_options, options);
    first_call(contender, inputs);
    // At least one call, whatever --warmup says: its output is verified.
    warm_up(contender, inputs, std::max<int64_t>(options.warmup, 1));
    measure_memory(contender, inputs);
    compile_other_streams(contender, loaded, compile_options, options);
  }
  if (options.mode == Mode::kInference) {
    for (size_t i = 1; i < contenders.size(); ++i) {
      verify_against_eager(contenders[i], contenders[0], loaded.output_names);
    }
    if (!options.save_outputs_dir.empty()) {
      save_first_outputs(contenders, rows, loaded, options.save_outputs_dir);
    }
  }

  const auto pool = make_input_pool(loaded, options, dtype);
  const ShapeSet shapes = parse_shape_set(options.shape_set);
  // With a shape set each repetition draws its shape; else the sets take turns.
  ShapeDraws draws(options.seed, pool.size());
  SampleBudget budget(options, contenders.size());
  const int64_t settling = settling_calls(contenders);
  const bool blocked = options.sample_order == SampleOrder::kBlocked;
  Contender* previous = nullptr;  // whose sample came last
  while (budget.another_repetition() && !contenders[0].failed) {
    const size_t set =
        shapes.empty() ? static_cast<size_t>(budget.sample_index()) % pool.size() : draws.next();
    const auto sample_inputs =
        options.randomize_input ? randomized_inputs(pool[set], options.seed, budget.sample_index())
                                : pool[set];
    for (size_t index : budget.next_order()) {
      auto& contender = contenders[index];
      const bool failed_before = contender.failed;
      if (previous != nullptr && previous != &contender) quiet_threads_elsewhere(*previous);
      take_sample(contender, sample_inputs, options.iterations_per_run,
                  sample_lead(blocked, previous == &contender, settling, options.warmup));
      previous = &contender;
      contender.sample_sets.resize(contender.samples.size(), set);
      if (contender.failed && !failed_before && !shapes.empty()) {
        contender.error = shapes.failed_at(set) + contender.error;
        if (contender.backend->traces_model()) {
          contender.error +=
              " (a traced graph holds the example's sizes as constants where tracing turned a "
              "size the model computes with into a number)";
        }
      }
    }
    budget.finish_repetition(sample_views(contenders));
  }
  if (options.mode == Mode::kInference) {
    verify_every_shape(contenders, pool, shapes, loaded.output_names);
  }

  for (size_t i = 1; i < contenders.size(); ++i) {
    summarize(*contenders[i].row, contenders[i], contenders[0]);
    if (contenders[i].row->passed())
      record_shape_latencies(*contenders[i].row, contenders[i], shapes);
    add_measurements(*contenders[i].row, contenders[i], contenders[0], options.seed + i);
    if (options.percentiles && contenders[i].row->passed()) {
      warn_unsupported_percentiles(*contenders[i].row);
    }
    if (contenders[i].backend) {
      warn_if_control_flow_was_traced(*contenders[i].row, *loaded.model, *contenders[i].backend);
    }
    warn_of_dropped_outputs(*contenders[i].row, loaded.dropped_outputs);
    if (contenders[i].row->passed()) {
      add_precision_cost(*contenders[i].row, *contenders[i].compiled, reduced.evaluation.get(),
                         dtype);
    }
    if (!run.profile_dir.empty() && contenders[i].row->passed()) {
      profile_row(*contenders[i].row, *contenders[i].compiled, inputs, run.profile_dir);
    }
    if (!options.save_optimized.empty() && contenders[i].row->passed()) {
      save_optimized_module(
          *contenders[i].row, *contenders[i].compiled,
          saved_module_path(options.save_optimized, loaded.name, contenders[i].backend_name));
    }
  }
  warn_about_non_finite_output(rows, contenders[0]);
  warn_about_denormal_output(rows, contenders[0], options.flush_denormal);
  warn_about_degenerate_output(rows, contenders[0], loaded.output_names);
  return rows;
}

}  // namespace tracebench
