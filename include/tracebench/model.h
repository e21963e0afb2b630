#pragma once
/// The model interface every source produces, and the adapter that turns a
/// plain torch::nn module into one. Included by out-of-tree model files:
///
///   struct LinearModel : torch::nn::Module {
///     LinearModel() { ... }
///     torch::Tensor forward(torch::Tensor x) { ... }
///     std::vector<torch::Tensor> get_example_inputs() { return {torch::randn({2, 10})}; }
///   };
///   TRACEBENCH_REGISTER_MODEL(LinearModel)
///
/// `forward` may take any number of tensors and return a tensor, a tuple of
/// tensors or a vector of tensors; it must not be overloaded.

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tracebench/error.h"

namespace torch::jit {
struct Graph;
}  // namespace torch::jit

namespace tracebench {

/// A model's own training objective: the targets its outputs are scored
/// against (made once, for the example inputs' batch) and the scalar loss.
struct TrainingLoss {
  std::vector<torch::Tensor> targets;
  std::function<torch::Tensor(const c10::IValue& outputs,
                              const std::vector<torch::Tensor>& targets)>
      loss;
};

/// A model ready to be benchmarked: something that maps inputs to outputs and
/// owns parameters. Backends see models only through this interface.
class Model {
 public:
  virtual ~Model() = default;

  /// One forward pass.
  virtual c10::IValue forward(const std::vector<c10::IValue>& inputs) = 0;

  /// The inputs the model's author supplied. Throws UsageError if there are none.
  virtual std::vector<c10::IValue> example_inputs() = 0;

  /// Every parameter and buffer, in a stable order.
  virtual std::vector<torch::Tensor> tensors() = 0;

  /// Trainable parameters only.
  virtual std::vector<torch::Tensor> parameters() = 0;

  /// The output tensors' names in depth-first order ("logits", "hidden[0]"),
  /// for messages that point at one of them; empty: named by position.
  virtual std::vector<std::string> output_names() { return {}; }

  /// The paths, named as output_names() names them, of what the model's own
  /// forward returns beside its tensors (numbers, strings, None: a seq2seq
  /// model's decoded lengths), which the loaded forward leaves out; each row
  /// warns of them (non_tensor_outputs).
  virtual std::vector<std::string> dropped_outputs() { return {}; }

  /// Whether forward branches or loops at run time (TorchScript's prim::If /
  /// prim::Loop): a backend that traces records one path only.
  virtual bool has_control_flow() { return false; }

  /// For a model loaded from a TorchScript archive: its forward as a graph of
  /// the inputs alone, parameters and buffers frozen in as constants (Python's
  /// torch.jit.freeze), or nullptr when it has none such (other sources, a
  /// forward that writes a model tensor). Where Python's tracer recorded a
  /// size the model computes with (aten::size), this graph computes it at
  /// every call; a C++ trace of the archive would fix it at the example's.
  virtual std::shared_ptr<torch::jit::Graph> frozen_graph() { return nullptr; }

  /// Switches train/eval behaviour (dropout, batch norm statistics).
  virtual void set_training(bool training) = 0;

  /// Puts dropout layers in eval mode and leaves the rest as set_training
  /// left it. Accuracy checks of training need it: backends draw dropout's
  /// random numbers in different orders, so outputs would differ by design.
  /// Dropout layers are found by type; dropout called as a function is not.
  virtual void disable_dropout() {}

  /// The model's natural training loss, if it has one (the zoo's classifiers:
  /// cross-entropy against seeded labels). Without one, training uses the
  /// harness's model-agnostic reduction of the outputs.
  virtual std::optional<TrainingLoss> training_loss() { return std::nullopt; }

  /// Replaces parameters and buffers with those of a state dict saved by Python's
  /// `torch.save(model.state_dict(), path)`. Throws UsageError when the file does
  /// not fit; only built-in models know how (they name their tensors like Python).
  virtual void load_weights(const std::string& path) {
    throw UsageError("cannot load " + path + ": --weights works for built-in models only");
  }
};

namespace detail {

template <typename T, typename = void>
struct HasExampleInputs : std::false_type {};
template <typename T>
struct HasExampleInputs<T, std::void_t<decltype(std::declval<T&>().get_example_inputs())>>
    : std::true_type {};

template <typename Method>
struct ForwardTraits;
template <typename C, typename R, typename... Args>
struct ForwardTraits<R (C::*)(Args...)> {
  static constexpr size_t kArity = sizeof...(Args);
  using ArgTuple = std::tuple<std::decay_t<Args>...>;
};

template <typename Result>
c10::IValue to_ivalue(Result&& result) {
  return c10::IValue(std::forward<Result>(result));
}

template <typename Inputs>
std::vector<c10::IValue> to_ivalues(Inputs&& inputs) {
  std::vector<c10::IValue> out;
  for (auto& input : inputs) out.emplace_back(input);
  return out;
}

}  // namespace detail

/// Adapts a torch::nn module with a single, non-overloaded `forward` to Model.
template <typename Module>
class NnModel final : public Model {
 public:
  using InputsFn = std::function<std::vector<c10::IValue>()>;

  /// `inputs_fn`, when given, supplies the example inputs instead of the
  /// module's own get_example_inputs (the zoo uses it to honour --batch-size).
  NnModel(std::string class_name, std::shared_ptr<Module> module, InputsFn inputs_fn = nullptr)
      : class_name_(std::move(class_name)),
        module_(std::move(module)),
        inputs_fn_(std::move(inputs_fn)) {}

  c10::IValue forward(const std::vector<c10::IValue>& inputs) override {
    using Traits = detail::ForwardTraits<decltype(&Module::forward)>;
    if (inputs.size() != Traits::kArity) {
      throw UsageError(class_name_ + ".forward takes " + std::to_string(Traits::kArity) +
                       " inputs but got " + std::to_string(inputs.size()) +
                       "; make get_example_inputs (or --input-shapes) match forward");
    }
    return call(inputs, std::make_index_sequence<Traits::kArity>{});
  }

  std::vector<c10::IValue> example_inputs() override {
    if (inputs_fn_) return inputs_fn_();
    if constexpr (detail::HasExampleInputs<Module>::value) {
      return detail::to_ivalues(module_->get_example_inputs());
    } else {
      throw UsageError("class " + class_name_ +
                       " has no get_example_inputs(); add one or pass --input-shapes");
    }
  }

  std::vector<torch::Tensor> tensors() override {
    std::vector<torch::Tensor> all = module_->parameters();
    for (auto& buffer : module_->buffers()) all.push_back(buffer);
    return all;
  }

  std::vector<torch::Tensor> parameters() override { return module_->parameters(); }

  void set_training(bool training) override { module_->train(training); }

  void disable_dropout() override {
    namespace nn = torch::nn;
    for (const auto& module : module_->modules()) {
      auto* m = module.get();
      if (dynamic_cast<nn::DropoutImpl*>(m) || dynamic_cast<nn::Dropout2dImpl*>(m) ||
          dynamic_cast<nn::Dropout3dImpl*>(m) || dynamic_cast<nn::AlphaDropoutImpl*>(m) ||
          dynamic_cast<nn::FeatureAlphaDropoutImpl*>(m)) {
        m->eval();
      }
    }
  }

  /// Installed by the zoo. A function object rather than a call to a library
  /// function, so that out-of-tree model libraries (dlopen'ed with RTLD_NOW)
  /// need no symbol from the harness.
  using WeightsLoader = std::function<void(Module&, const std::string&)>;
  void set_weights_loader(WeightsLoader loader) { weights_loader_ = std::move(loader); }

  void load_weights(const std::string& path) override {
    if (!weights_loader_) return Model::load_weights(path);
    weights_loader_(*module_, path);
  }

  std::optional<TrainingLoss> training_loss() override { return training_loss_; }
  void set_training_loss(TrainingLoss loss) { training_loss_ = std::move(loss); }

  Module& module() { return *module_; }

 private:
  template <size_t... I>
  c10::IValue call(const std::vector<c10::IValue>& inputs, std::index_sequence<I...>) {
    using Args = typename detail::ForwardTraits<decltype(&Module::forward)>::ArgTuple;
    return detail::to_ivalue(module_->forward(inputs[I].to<std::tuple_element_t<I, Args>>()...));
  }

  std::string class_name_;
  std::shared_ptr<Module> module_;
  InputsFn inputs_fn_;
  WeightsLoader weights_loader_;
  std::optional<TrainingLoss> training_loss_;
};

/// The symbol prefix the loader looks up with dlsym: one factory per class.
inline constexpr const char* kModelFactoryPrefix = "tracebench_model_";

}  // namespace tracebench

/// Exports a factory for CLASS from a model source file, so that
/// `--only=path:FILE,class:CLASS` finds it. CLASS must be default-constructible.
#define TRACEBENCH_REGISTER_MODEL(CLASS)                                      \
  extern "C" __attribute__((visibility("default")))                           \
  tracebench::Model* tracebench_model_##CLASS() {                             \
    return new tracebench::NnModel<CLASS>(#CLASS, std::make_shared<CLASS>()); \
  }
