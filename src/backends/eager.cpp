// eager: the model as it is. torch::nn models run their C++ forward directly;
// TorchScript-loaded models (.pt, .py) run with graph optimizations off.

#include "backends/registry.h"
#include "tracebench/backend.h"

namespace tracebench {

namespace {

class EagerModel final : public CompiledModel {
 public:
  explicit EagerModel(Model& model) : model_(model) {}
  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    return model_.forward(inputs);
  }

 private:
  Model& model_;
};

class EagerBackend final : public Backend {
 public:
  std::string description() const override {
    return "the model as written (TorchScript files: JIT graph optimizations off)";
  }
  bool supports_training() const override { return true; }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions&) override {
    return std::make_unique<EagerModel>(model);
  }
};

const BuiltinBackend kEager("eager", [] { return std::make_unique<EagerBackend>(); });

}  // namespace

}  // namespace tracebench
