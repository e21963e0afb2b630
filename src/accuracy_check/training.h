#pragma once
// One training iteration as the timed unit: zero-grad, forward (through the
// backend), a scalar loss, backward, optimizer step.

#include <torch/script.h>

#include <memory>
#include <string>

#include "tracebench/backend.h"

namespace tracebench {

enum class OptimizerKind { kSgd, kAdam };

/// Whether a training iteration keeps the model's dropout (performance) or
/// turns it off (accuracy checks, see Model::disable_dropout).
enum class Dropout { kKeep, kOff };

/// Parses "sgd" / "adam". Throws UsageError otherwise.
OptimizerKind parse_optimizer(const std::string& name);

/// The loss the iteration minimises: the mean of every floating-point output
/// tensor, averaged over the outputs (the dynamo runner's reduce_to_scalar_loss).
/// Model-agnostic on purpose: it needs no labels, so any model can train.
torch::Tensor reduce_to_scalar_loss(const c10::IValue& outputs);

/// The harness's training recipe for `model`: its natural loss
/// (Model::training_loss) or else reduce_to_scalar_loss, and the optimizer
/// (SGD lr 0.01, or Adam lr 0.001).
TrainingRecipe training_recipe(Model& model, OptimizerKind optimizer);

/// A model of its own, trained through a backend. run() performs one iteration
/// and returns (outputs, loss), detached. The backend runs the iteration itself
/// when it compiles one (Backend::compile_training_step); otherwise the harness
/// runs it around the backend's compiled forward pass.
class TrainingIteration final : public CompiledModel {
 public:
  TrainingIteration(Backend& backend, std::unique_ptr<Model> model, const CompileOptions& options,
                    OptimizerKind optimizer, Dropout dropout = Dropout::kKeep);
  c10::IValue run(const std::vector<c10::IValue>& inputs) override { return step_->run(inputs); }
  std::map<std::string, double> counters() const override { return step_->counters(); }
  std::vector<BackendWarning> warnings() const override { return step_->warnings(); }
  std::string chosen() const override { return step_->chosen(); }

  /// Parameters after the last step, then their gradients (zeros if none).
  std::vector<torch::Tensor> parameters_and_gradients() {
    return step_->parameters_and_gradients();
  }

 private:
  std::unique_ptr<Model> model_;  // declared first: outlives the step that uses it
  std::unique_ptr<CompiledTrainingStep> step_;
};

}  // namespace tracebench
