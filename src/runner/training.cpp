#include "runner/training.h"

#include "tracebench/error.h"

namespace tracebench {

namespace {

void add_floating_means(const c10::IValue& value, std::vector<torch::Tensor>& means) {
  if (value.isTensor()) {
    if (value.toTensor().is_floating_point()) means.push_back(value.toTensor().mean());
  } else if (value.isTuple()) {
    for (const auto& element : value.toTupleRef().elements()) add_floating_means(element, means);
  } else if (value.isList()) {
    for (const auto& element : value.toListRef()) add_floating_means(element, means);
  } else if (value.isGenericDict()) {
    for (const auto& entry : value.toGenericDict()) add_floating_means(entry.value(), means);
  }
}

c10::IValue detached(const c10::IValue& value) {
  if (value.isTensor()) return value.toTensor().detach();
  if (value.isTuple()) {
    std::vector<c10::IValue> elements;
    for (const auto& element : value.toTupleRef().elements()) elements.push_back(detached(element));
    return c10::ivalue::Tuple::create(std::move(elements));
  }
  return value;
}

}  // namespace

OptimizerKind parse_optimizer(const std::string& name) {
  if (name == "sgd") return OptimizerKind::kSgd;
  if (name == "adam") return OptimizerKind::kAdam;
  throw UsageError("unknown optimizer '" + name + "'; use --optimizer sgd or --optimizer adam");
}

torch::Tensor reduce_to_scalar_loss(const c10::IValue& outputs) {
  std::vector<torch::Tensor> means;
  add_floating_means(outputs, means);
  TORCH_CHECK(!means.empty(), "the model returned no floating-point tensor to train on");
  return torch::stack(means).mean();
}

TrainingIteration::TrainingIteration(Backend& backend, std::unique_ptr<Model> model,
                                     const CompileOptions& options, OptimizerKind optimizer)
    : model_(std::move(model)) {
  model_->set_training(true);
  for (auto& parameter : model_->parameters()) parameter.requires_grad_(true);
  forward_ = backend.compile(*model_, options);
  if (optimizer == OptimizerKind::kAdam) {
    optimizer_ = std::make_unique<torch::optim::Adam>(model_->parameters(),
                                                      torch::optim::AdamOptions(1e-3));
  } else {
    optimizer_ = std::make_unique<torch::optim::SGD>(model_->parameters(),
                                                     torch::optim::SGDOptions(1e-2));
  }
}

c10::IValue TrainingIteration::run(const std::vector<c10::IValue>& inputs) {
  optimizer_->zero_grad();
  const auto outputs = forward_->run(inputs);
  auto loss = reduce_to_scalar_loss(outputs);
  loss.backward();
  optimizer_->step();
  return c10::ivalue::Tuple::create({detached(outputs), loss.detach()});
}

std::vector<torch::Tensor> TrainingIteration::parameters_and_gradients() {
  std::vector<torch::Tensor> result;
  const auto parameters = model_->parameters();
  for (const auto& p : parameters) result.push_back(p.detach().clone());
  for (const auto& p : parameters) {
    result.push_back(p.grad().defined() ? p.grad().detach().clone() : torch::zeros_like(p));
  }
  return result;
}

}  // namespace tracebench
