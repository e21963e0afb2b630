// Where the lazy backends' time goes, phase by phase, on every zoo model:
// eager, lazy_trace_once and lazy_trace_everytime per call, and the parts of
// a trace-everytime call (moving inputs to the lazy device, recording the
// IR, recording and syncing). Prints medians in microseconds; asserts
// nothing (a profiler, not a test). TRACEBENCH_DUMP_GRAPH=1 prints each
// model's captured graph too.
//
//   build/bench/lazy_phases

#include <torch/csrc/lazy/core/lazy_graph_executor.h>
#include <torch/csrc/lazy/ts_backend/ts_lowering_context.h>
#include <torch/script.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>

#include "backends/lazy/lazy_capture.h"
#include "backends/lazy/lazy_common.h"
#include "backends/registry.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

std::unique_ptr<CompiledModel> compile(const std::string& backend, Model& model,
                                       const std::vector<c10::IValue>& inputs) {
  CompileOptions options;
  options.example_inputs = inputs;
  return make_backend(backend)->compile(model, options);
}

void prepare(Model& model) {
  model.set_training(false);
  for (auto& tensor : model.tensors()) tensor.requires_grad_(false);
}

double median_us(const std::function<void()>& fn, int reps = 30) {
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    auto start = std::chrono::steady_clock::now();
    fn();
    times.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void print_phases() {
  torch::NoGradGuard no_grad;
  lazy::ensure_lazy_backend();
  auto* executor = torch::lazy::LazyGraphExecutor::Get();
  const auto device = lazy::lazy_backend_device();
  for (const auto& entry : zoo_models()) {
    torch::manual_seed(0);
    auto model = entry.make(1);
    prepare(*model);
    auto inputs = model->example_inputs();
    lazy::LazyProgram program(lazy::trace_with_parameter_inputs(*model, inputs));
    auto once = compile("lazy_trace_once", *model, inputs);
    auto every = compile("lazy_trace_everytime", *model, inputs);
    for (int i = 0; i < 5; ++i) {
      once->run(inputs);
      every->run(inputs);
      model->forward(inputs);
    }
    auto computation = std::dynamic_pointer_cast<torch::lazy::TSComputation>(
        executor->GetComputationCache()->GetLatest()->computation);
    torch::jit::Stack probe;
    const double eager = median_us([&] { model->forward(inputs); });
    const double trace_once = median_us([&] { once->run(inputs); });
    const double trace_every = median_us([&] { every->run(inputs); });
    const double to_lazy = median_us([&] { lazy::to_lazy(inputs); });
    const double record = median_us([&] { program.record(inputs); });
    c10::IValue pending;
    const double record_and_sync = median_us([&] {
      pending = program.record(inputs);
      executor->SyncLiveTensorsGraph(&device, {}, true);
    });
    std::cout << entry.name << ": eager " << eager << " | trace_once " << trace_once
              << " | trace_everytime " << trace_every << " (to_lazy " << to_lazy << ", record "
              << record << ", record+sync " << record_and_sync << ")\n";
    if (std::getenv("TRACEBENCH_DUMP_GRAPH")) std::cout << *computation->graph() << "\n";
  }
}

}  // namespace
}  // namespace tracebench

int main() {
  tracebench::print_phases();
  return 0;
}
