#include "backends/lazy/lazy_training.h"

#include <torch/version.h>

#include <ATen/FunctionalTensorWrapper.h>
#include <torch/csrc/lazy/core/lazy_graph_executor.h>

#include <unordered_map>

namespace tracebench::lazy {

namespace {

// Where each of the model's parameters sits among the program's resident
// tensors (which start with Model::tensors(): the same tensor objects).
std::vector<size_t> parameter_positions(Model& model, const LazyProgram& program) {
  std::unordered_map<const void*, size_t> position;
  for (size_t i = 0; i < program.resident_cpu().size(); ++i) {
    position.emplace(program.resident_cpu()[i].unsafeGetTensorImpl(), i);
  }
  std::vector<size_t> positions;
  for (const auto& parameter : model.parameters()) {
    auto it = position.find(parameter.unsafeGetTensorImpl());
    TORCH_CHECK(it != position.end(), "a parameter of the model is not among its tensors()");
    positions.push_back(it->second);
  }
  return positions;
}

}  // namespace

LazyTrainer::LazyTrainer(Model& model, const CompileOptions& options, const TrainingRecipe& recipe)
    : program_(trace_with_parameter_inputs(model, options.example_inputs, Mode::kTraining)),
      loss_(recipe.loss) {
#if TORCH_VERSION_MAJOR >= 2
  // Measured on 2.15 (tests/lazy/lazy_training_test.cpp): LinearModel and
  // small_convnet train like eager, but mobilenet_v2's gradients differ from
  // eager's by up to 3.6 after three SGD steps, and the ViT's step records an
  // aten::copy with no lazy lowering. Until that is understood, no training
  // row on 2.x is better than a wrong one.
  throw UnsupportedModel(
      "lazy training is not validated on LibTorch 2.x (mobilenet_v2's gradients diverge from "
      "eager's there; docs/pytorch2.md): use the Debian build");
#endif
  for (size_t position : parameter_positions(model, program_)) {
    at::Tensor parameter = program_.resident_lazy()[position];
    parameter.requires_grad_(true);
    parameters_.push_back(parameter);
  }
  optimizer_ = recipe.make_optimizer(parameters_);
  for (const auto& target : recipe.targets) targets_.push_back(to_lazy_data(target));
}

c10::IValue LazyTrainer::record_iteration(const std::vector<c10::IValue>& lazy_inputs) {
  optimizer_->zero_grad();
  c10::IValue outputs = program_.record_lazy(lazy_inputs);
  at::Tensor loss = loss_(outputs, targets_);
  loss.backward();
  optimizer_->step();
  return c10::ivalue::Tuple::create({outputs, loss});
}

std::vector<at::Tensor> LazyTrainer::state() const {
  std::vector<at::Tensor> state = program_.resident_lazy();
  for (const auto& parameter : parameters_) state.push_back(parameter.grad());
  state.insert(state.end(), targets_.begin(), targets_.end());
  // Lazy tensors are functionalized: the optimizer updates a parameter
  // through p.data(), an alias, and the parameter's own wrapper still holds
  // the old lazy tensor until it is synced with its storage's updates.
  for (const auto& tensor : state) {
    if (tensor.defined()) at::functionalization::impl::sync(tensor);
  }
  return state;
}

std::vector<at::Tensor> LazyTrainer::parameters_and_gradients() const {
  std::vector<at::Tensor> result;
  for (const auto& parameter : parameters_) result.push_back(parameter.to(c10::kCPU).detach());
  for (const auto& parameter : parameters_) {
    result.push_back(parameter.grad().defined()
                         ? parameter.grad().to(c10::kCPU)
                         : torch::zeros(parameter.sizes(), parameter.options().device(c10::kCPU)));
  }
  return result;
}

void mark_step() {
  auto* executor = torch::lazy::LazyGraphExecutor::Get();
  const auto device = lazy_backend_device();
  executor->SyncLiveTensorsGraph(&device, /*devices=*/{}, /*wait=*/true);
  executor->MarkStep(device);
}

c10::IValue to_cpu(const c10::IValue& lazy_value) {
  std::vector<at::Tensor> lazy_tensors;
  flatten_tensors(lazy_value, lazy_tensors);
  std::vector<at::Tensor> cpu_tensors;
  cpu_tensors.reserve(lazy_tensors.size());
  // Detached on the CPU: detaching a lazy tensor records a copy in the
  // lazy graph, and reading it would then need a second sync.
  for (const auto& tensor : lazy_tensors) cpu_tensors.push_back(tensor.to(c10::kCPU).detach());
  size_t next = 0;
  return unflatten_tensors(lazy_value, cpu_tensors, next);
}

}  // namespace tracebench::lazy
