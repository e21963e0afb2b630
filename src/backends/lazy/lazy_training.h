#pragma once
// Training on the lazy device, the seed's point: the parameters live on the
// lazy device, and forward, loss, backward and the optimizer step are all
// recorded as lazy IR, so one sync computes a whole iteration. Shared by
// lazy_trace_everytime (records and syncs every iteration) and lazy_trace_once
// (captures one iteration's computation and replays it).

#include <memory>
#include <vector>

#include "backends/lazy/lazy_common.h"
#include "tracebench/backend.h"

namespace tracebench::lazy {

/// A model's parameters on the lazy device with requires_grad, and an
/// optimizer over them.
class LazyTrainer {
 public:
  LazyTrainer(Model& model, const CompileOptions& options, const TrainingRecipe& recipe);

  /// Records one iteration (zero-grad, forward, loss, backward, step) on
  /// inputs already on the lazy device; returns (outputs, loss) as lazy
  /// tensors with pending IR. Nothing is computed until a sync.
  c10::IValue record_iteration(const std::vector<c10::IValue>& lazy_inputs);

  /// The tensors an iteration reads and writes besides its inputs: every model
  /// tensor (parameters, buffers), each parameter's gradient, then the loss's
  /// targets (read only).
  std::vector<at::Tensor> state() const;

  /// Parameters, then gradients (zeros where none), copied to the CPU.
  std::vector<at::Tensor> parameters_and_gradients() const;

  const LazyProgram& program() const { return program_; }
  size_t parameter_count() const { return parameters_.size(); }

 private:
  LazyProgram program_;
  std::vector<at::Tensor> parameters_;  // lazy, in Model::parameters() order
  decltype(TrainingRecipe::loss) loss_;
  std::vector<at::Tensor> targets_;  // on the lazy device
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
};

/// Syncs every live lazy tensor with pending IR in one graph execution and
/// ends the step (LTC's mark step): what an LTC/XLA user calls per iteration.
void mark_step();

/// `lazy_value`'s tensors copied to the CPU, in the same structure.
c10::IValue to_cpu(const c10::IValue& lazy_value);

}  // namespace tracebench::lazy
