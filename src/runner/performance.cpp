#include "runner/performance.h"

#include <ATen/CPUGeneratorImpl.h>

#include <chrono>
#include <limits>
#include <memory>

#include "backends/registry.h"
#include "measure/memory.h"
#include "measure/statistics.h"
#include "measure/timer.h"
#include "runner/row_statistics.h"
#include "runner/sample_budget.h"

namespace tracebench {

namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string error_message(const std::exception& error) {
  if (auto* c10_error = dynamic_cast<const c10::Error*>(&error)) {
    return first_line(c10_error->what_without_backtrace());
  }
  return first_line(error.what());
}

// One timed participant: the eager baseline or a requested backend.
struct Contender {
  std::string backend_name;
  std::unique_ptr<Backend> backend;
  std::unique_ptr<CompiledModel> compiled;
  ResultRow* row = nullptr;  // nullptr for the baseline
  std::vector<double> samples;
  bool failed = false;
  std::string error;
  double compile_seconds = 0;
  double first_call_seconds = std::numeric_limits<double>::quiet_NaN();
  MemoryPeak memory;
};

void fail(Contender& contender, const std::exception& error) {
  contender.failed = true;
  contender.error = error_message(error);
}

void compile(Contender& contender, Model& model, const CompileOptions& compile_options) {
  try {
    contender.backend = make_backend(contender.backend_name);
    const auto start = std::chrono::steady_clock::now();
    contender.compiled = contender.backend->compile(model, compile_options);
    contender.compile_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } catch (const std::exception& error) {
    fail(contender, error);
  }
}

void warm_up(Contender& contender, const std::vector<c10::IValue>& inputs, int64_t calls) {
  if (contender.failed) return;
  try {
    for (int64_t i = 0; i < calls; ++i) contender.compiled->run(inputs);
  } catch (const std::exception& error) {
    fail(contender, error);
  }
}

// The first call after compiling, timed on its own: lazy backends compile here.
void first_call(Contender& contender, const std::vector<c10::IValue>& inputs) {
  if (contender.failed) return;
  try {
    contender.first_call_seconds = time_per_call([&] { contender.compiled->run(inputs); }, 1);
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

void take_sample(Contender& contender, const std::vector<c10::IValue>& inputs,
                 int64_t iterations) {
  if (contender.failed) return;
  try {
    contender.samples.push_back(
        time_per_call([&] { contender.compiled->run(inputs); }, iterations));
  } catch (const std::exception& error) {
    fail(contender, error);
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
    row.status = status::kFailToRun;
    row.error = contender.error;
    return;
  }
  row.samples_s = contender.samples;
  row.eager_samples_s = eager.samples;
  row.abs_latency_ms = median(contender.samples) * 1e3;
  row.eager_latency_ms = median(eager.samples) * 1e3;
  row.speedup = row.eager_latency_ms / row.abs_latency_ms;
  row.p_value = welch_t_test(eager.samples, contender.samples).p_value;
  row.counters = contender.compiled->counters();
}

}  // namespace

std::vector<c10::IValue> randomized_inputs(const std::vector<c10::IValue>& inputs, uint64_t seed,
                                           int64_t repetition) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed + 7919 * (repetition + 1));
  std::vector<c10::IValue> fresh;
  for (const auto& input : inputs) {
    if (input.isTensor() && input.toTensor().is_floating_point()) {
      const auto& tensor = input.toTensor();
      fresh.emplace_back(at::randn(tensor.sizes(), generator, tensor.options()));
    } else {
      fresh.push_back(input);
    }
  }
  return fresh;
}

std::vector<ResultRow> measure_performance(LoadedModel& loaded, const RunOptions& options) {
  std::vector<ResultRow> rows(options.backends.size());
  std::vector<Contender> contenders(options.backends.size() + 1);
  contenders[0].backend_name = "eager";
  for (size_t i = 0; i < options.backends.size(); ++i) {
    rows[i].model = loaded.name;
    rows[i].backend = options.backends[i];
    rows[i].batch_size = loaded.batch_size;
    rows[i].mode = options.mode == Mode::kTraining ? "train" : "eval";
    rows[i].iterations_per_run = options.iterations_per_run;
    contenders[i + 1].backend_name = options.backends[i];
    contenders[i + 1].row = &rows[i];
  }

  // Inference: no autograd state anywhere, and parameters can become constants.
  torch::NoGradGuard no_grad;
  loaded.model->set_training(false);
  for (auto& tensor : loaded.model->tensors()) tensor.requires_grad_(false);

  CompileOptions compile_options;
  compile_options.mode = options.mode;
  compile_options.example_inputs = loaded.inputs;
  for (auto& contender : contenders) {
    compile(contender, *loaded.model, compile_options);
    first_call(contender, loaded.inputs);
    warm_up(contender, loaded.inputs, options.warmup);
    measure_memory(contender, loaded.inputs);
  }

  SampleBudget budget(options, contenders.size());
  for (int64_t rep = 0; budget.another_repetition() && !contenders[0].failed; ++rep) {
    const auto inputs = options.randomize_input
                            ? randomized_inputs(loaded.inputs, options.seed, rep)
                            : loaded.inputs;
    for (size_t index : budget.next_order()) {
      take_sample(contenders[index], inputs, options.iterations_per_run);
    }
    budget.finish_repetition(sample_views(contenders));
  }

  for (size_t i = 1; i < contenders.size(); ++i) {
    summarize(*contenders[i].row, contenders[i], contenders[0]);
    add_measurements(*contenders[i].row, contenders[i], contenders[0], options.seed + i);
  }
  return rows;
}

}  // namespace tracebench
