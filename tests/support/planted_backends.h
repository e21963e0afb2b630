#pragma once
// Backends whose cost or timings are known before a run starts, for the tests
// and benchmarks that check what the harness measures (tests/unit/
// known_answer_test.cpp, bench/validate_statistics.cpp). Never registered by
// the product.

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backends/registry.h"
#include "tracebench/backend.h"

namespace tracebench::testing {

/// Returns at `end` by the steady clock: a wall-time cost that a preempted
/// thread still pays on time, unlike a computation's.
inline void spin_until(std::chrono::steady_clock::time_point end) {
  while (std::chrono::steady_clock::now() < end) {
  }
}

/// Costs `cost` times the model's own call, measured on each call: it runs the
/// model, then spins cost - 1 times as long again. Against eager on the same
/// model its true speedup is 1 / cost.
class KnownCostBackend final : public Backend {
 public:
  explicit KnownCostBackend(double cost) : cost_(cost) {}
  std::string description() const override { return "test only: a known multiple of eager"; }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions&) override {
    struct Scaled : CompiledModel {
      Scaled(Model& model, double cost) : model(model), cost(cost) {}
      c10::IValue run(const std::vector<c10::IValue>& inputs) override {
        const auto start = std::chrono::steady_clock::now();
        auto outputs = model.forward(inputs);
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        spin_until(start +
                   std::chrono::duration_cast<std::chrono::steady_clock::duration>(took * cost));
        return outputs;
      }
      Model& model;
      double cost;
    };
    return std::make_unique<Scaled>(model, cost_);
  }

 private:
  double cost_;
};

/// Runs the model, and each timed call reports the next of `times_s` (seconds
/// per call), cycling, instead of what the clock saw: for figures that must
/// come out exactly (a measured A/A p-value is uniform by nature).
class GivenTimesBackend final : public Backend {
 public:
  explicit GivenTimesBackend(std::vector<double> times_s) : times_s_(std::move(times_s)) {}
  std::string description() const override { return "test only: reports given times"; }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions&) override {
    struct Given : CompiledModel {
      Given(Model& model, std::vector<double> times_s)
          : model(model), times_s(std::move(times_s)) {}
      c10::IValue run(const std::vector<c10::IValue>& inputs) override {
        return model.forward(inputs);
      }
      double seconds_per_call(const std::vector<c10::IValue>& inputs, int64_t) override {
        model.forward(inputs);
        return times_s[next++ % times_s.size()];
      }
      Model& model;
      std::vector<double> times_s;
      size_t next = 0;
    };
    return std::make_unique<Given>(model, times_s_);
  }

 private:
  std::vector<double> times_s_;
};

/// Registers a backend under `name` while it lives, then puts back what the
/// name had (a built-in such as eager, replaced for one test).
class PlantedBackend {
 public:
  PlantedBackend(std::string name, BackendFactory factory)
      : name_(std::move(name)), replaced_(register_backend(name_, std::move(factory))) {}
  ~PlantedBackend() {
    if (replaced_) register_backend(name_, replaced_);
  }
  PlantedBackend(const PlantedBackend&) = delete;
  PlantedBackend& operator=(const PlantedBackend&) = delete;

 private:
  std::string name_;
  BackendFactory replaced_;
};

inline PlantedBackend plant_cost(const std::string& name, double cost) {
  return PlantedBackend(name, [cost] { return std::make_unique<KnownCostBackend>(cost); });
}

inline PlantedBackend plant_times(const std::string& name, std::vector<double> times_s) {
  return PlantedBackend(name, [times_s] { return std::make_unique<GivenTimesBackend>(times_s); });
}

}  // namespace tracebench::testing
