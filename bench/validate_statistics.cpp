// Validates the speedup statistics on this machine, end to end through the
// real performance loop:
//   A/A: eager against eager must give ~1.00x with the 95% CI containing 1.0
//        in about 95% of repeats (a CI that is too narrow shows up here);
//   planted delta: a test-only backend that runs eager and then busy-waits for
//        X% of that call's own duration has a true speedup of exactly 1/(1+X);
//        its CI must contain that value (about 95% of repeats).
// Usage: validate_statistics [repeats=40] [samples=30] [model=small_convnet]
// Figures are recorded in docs/statistics.md.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "measure/statistics.h"
#include "performance/performance.h"
#include "planted_backends.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

struct Tally {
  int covered = 0, runs = 0;
  std::vector<double> speedups, widths;
};

Tally run_repeats(const std::string& model_name, const std::string& backend, double expected,
                  int repeats, int samples) {
  Tally tally;
  for (int r = 0; r < repeats; ++r) {
    torch::manual_seed(0);
    LoadedModel loaded;
    loaded.name = model_name;
    const auto* entry = find_zoo_model(model_name);
    loaded.batch_size = entry->default_batch_size;
    loaded.model = entry->make(loaded.batch_size);
    loaded.inputs = loaded.model->example_inputs();
    RunOptions options;
    options.backends = {backend};
    options.repeat = samples;
    options.seed = 1000 + r;
    const auto row = measure_performance(loaded, first_point_run(options)).front();
    if (!row.passed()) {
      std::fprintf(stderr, "run %d failed: %s\n", r, row.error.c_str());
      continue;
    }
    ++tally.runs;
    if (row.ci_low <= expected && expected <= row.ci_high) ++tally.covered;
    tally.speedups.push_back(row.speedup);
    tally.widths.push_back(row.ci_high - row.ci_low);
  }
  return tally;
}

void print(const char* label, double expected, const Tally& t) {
  std::printf(
      "%-28s expected %.3fx  median speedup %.3fx  median CI width %.3f  "
      "CI contains expected in %d/%d (%.0f%%)\n",
      label, expected, median(t.speedups), median(t.widths), t.covered, t.runs,
      t.runs ? 100.0 * t.covered / t.runs : 0.0);
}

}  // namespace
}  // namespace tracebench

int main(int argc, char** argv) {
  using namespace tracebench;
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 40;
  const int samples = argc > 2 ? std::atoi(argv[2]) : 30;
  const std::string model = argc > 3 ? argv[3] : "small_convnet";
  if (find_zoo_model(model) == nullptr) {
    std::fprintf(stderr, "unknown model %s\n", model.c_str());
    return 2;
  }
  std::printf("model %s, %d repeats of %d samples each, 2000 bootstrap resamples\n", model.c_str(),
              repeats, samples);
  const auto start = std::chrono::steady_clock::now();
  print("A/A (eager vs eager)", 1.0, run_repeats(model, "eager", 1.0, repeats, samples));
  for (double fraction : {0.05, 0.20}) {
    // eager, then a busy-wait of `fraction` of that call's own duration.
    const auto planted = testing::plant_cost("planted", 1 + fraction);
    char label[64];
    std::snprintf(label, sizeof label, "planted +%.0f%% busy-wait", fraction * 100);
    print(label, 1 / (1 + fraction),
          run_repeats(model, "planted", 1 / (1 + fraction), repeats, samples));
  }
  std::printf("took %.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}
