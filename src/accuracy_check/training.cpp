#include "accuracy_check/training.h"

#include "tracebench/error.h"
#include "util/tensor_tree.h"

namespace tracebench {

namespace {

c10::IValue detached(const c10::IValue& value) {
  return map_tensors(value, [](const at::Tensor& tensor) { return tensor.detach(); });
}

}  // namespace

OptimizerKind parse_optimizer(const std::string& name) {
  if (name == "sgd") return OptimizerKind::kSgd;
  if (name == "adam") return OptimizerKind::kAdam;
  throw UsageError("unknown optimizer '" + name + "'; use --optimizer sgd or --optimizer adam");
}

torch::Tensor reduce_to_scalar_loss(const c10::IValue& outputs) {
  std::vector<torch::Tensor> means;
  for_each_tensor(outputs, [&means](const at::Tensor& tensor) {
    if (tensor.is_floating_point()) means.push_back(tensor.mean());
  });
  TORCH_CHECK(!means.empty(), "the model returned no floating-point tensor to train on");
  return torch::stack(means).mean();
}

namespace {

// The iteration around a backend's compiled forward pass, updating the
// model's own parameters.
class HarnessTrainingStep final : public CompiledTrainingStep {
 public:
  HarnessTrainingStep(Backend& backend, Model& model, const CompileOptions& options,
                      const TrainingRecipe& recipe)
      : model_(model), loss_(recipe.loss), targets_(recipe.targets) {
    forward_ = backend.compile(model, options);
    optimizer_ = recipe.make_optimizer(model.parameters());
  }

  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    optimizer_->zero_grad();
    const auto outputs = forward_->run(inputs);
    auto loss = loss_(outputs, targets_);
    loss.backward();
    optimizer_->step();
    return c10::ivalue::Tuple::create({detached(outputs), loss.detach()});
  }

  std::map<std::string, double> counters() const override { return forward_->counters(); }
  std::vector<BackendWarning> warnings() const override { return forward_->warnings(); }
  std::string chosen() const override { return forward_->chosen(); }

  std::vector<torch::Tensor> parameters_and_gradients() override {
    std::vector<torch::Tensor> result;
    const auto parameters = model_.parameters();
    for (const auto& p : parameters) result.push_back(p.detach().clone());
    for (const auto& p : parameters) {
      result.push_back(p.grad().defined() ? p.grad().detach().clone() : torch::zeros_like(p));
    }
    return result;
  }

 private:
  Model& model_;
  decltype(TrainingRecipe::loss) loss_;
  std::vector<torch::Tensor> targets_;
  std::unique_ptr<CompiledModel> forward_;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
};

}  // namespace

TrainingRecipe training_recipe(Model& model, OptimizerKind optimizer) {
  TrainingRecipe recipe;
  if (auto natural = model.training_loss()) {
    recipe.loss = std::move(natural->loss);
    recipe.targets = std::move(natural->targets);
  } else {
    recipe.loss = [](const c10::IValue& outputs, const std::vector<torch::Tensor>&) {
      return reduce_to_scalar_loss(outputs);
    };
  }
  if (optimizer == OptimizerKind::kAdam) {
    recipe.optimizer_name = "adam";
    recipe.make_optimizer = [](std::vector<torch::Tensor> parameters) {
      return std::make_unique<torch::optim::Adam>(std::move(parameters),
                                                  torch::optim::AdamOptions(1e-3));
    };
  } else {
    recipe.optimizer_name = "sgd";
    recipe.make_optimizer = [](std::vector<torch::Tensor> parameters) {
      return std::make_unique<torch::optim::SGD>(std::move(parameters),
                                                 torch::optim::SGDOptions(1e-2));
    };
  }
  return recipe;
}

TrainingIteration::TrainingIteration(Backend& backend, std::unique_ptr<Model> model,
                                     const CompileOptions& options, OptimizerKind optimizer,
                                     Dropout dropout)
    : model_(std::move(model)) {
  model_->set_training(true);
  if (dropout == Dropout::kOff) model_->disable_dropout();
  for (auto& parameter : model_->parameters()) parameter.requires_grad_(true);
  const auto recipe = training_recipe(*model_, optimizer);
  step_ = backend.compile_training_step(*model_, options, recipe);
  if (!step_) step_ = std::make_unique<HarnessTrainingStep>(backend, *model_, options, recipe);
}

}  // namespace tracebench
