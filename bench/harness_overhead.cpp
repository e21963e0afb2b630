// The harness's own cost per timed sample, measured with a null system under
// test (a model that does nothing), as MLPerf LoadGen does: whatever this
// prints is the floor under every latency tracebench reports.

#include <benchmark/benchmark.h>

#include "backends/registry.h"
#include "measure/timer.h"
#include "tracebench/model.h"

namespace tracebench {
namespace {

// forward returns its input: no tensor work at all.
struct IdentityModule : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
};

const std::vector<c10::IValue>& example_inputs() {
  static const std::vector<c10::IValue> inputs = {torch::zeros({1, 10})};
  return inputs;
}

// One sample of one call: two clock reads around a call through the
// CompiledModel interface, the eager backend, the NnModel adapter and the
// IValue boxing of inputs and outputs.
void BM_TimedSampleOfNullModel(benchmark::State& state) {
  NnModel<IdentityModule> model("Identity", std::make_shared<IdentityModule>());
  CompileOptions options;
  options.example_inputs = example_inputs();
  auto compiled = make_backend("eager")->compile(model, options);
  double sink = 0;
  for (auto _ : state) {
    sink += time_per_call([&] { benchmark::DoNotOptimize(compiled->run(example_inputs())); }, 1);
  }
  benchmark::DoNotOptimize(sink);
}
BENCHMARK(BM_TimedSampleOfNullModel);

// The timer alone, around an empty call: the clock's share of the above.
void BM_TimerAroundEmptyCall(benchmark::State& state) {
  double sink = 0;
  for (auto _ : state) sink += time_per_call([] {}, 1);
  benchmark::DoNotOptimize(sink);
}
BENCHMARK(BM_TimerAroundEmptyCall);

// The smallest real model for scale: the seed's LinearModel's two layers.
void BM_LinearModelForward(benchmark::State& state) {
  torch::NoGradGuard no_grad;
  auto layers = torch::nn::Sequential(torch::nn::Linear(10, 10), torch::nn::Linear(10, 10));
  auto x = torch::randn({2, 10});
  for (auto _ : state) benchmark::DoNotOptimize(layers->forward(x));
}
BENCHMARK(BM_LinearModelForward);

}  // namespace
}  // namespace tracebench

BENCHMARK_MAIN();
