#include "sources/script_loader.h"

#include <torch/csrc/jit/passes/constant_propagation.h>
#include <torch/csrc/jit/passes/dead_code_elimination.h>
#include <torch/csrc/jit/passes/freeze_module.h>
#include <torch/csrc/jit/passes/inliner.h>
#include <torch/csrc/jit/runtime/graph_executor.h>
#include <torch/csrc/jit/serialization/import.h>
#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/script.h>

#include <nlohmann/json.hpp>

#include "sources/size_arithmetic.h"
#include "tracebench/error.h"
#include "util/cache.h"
#include "util/text.h"

namespace tracebench {

namespace {

// Branches and loops left after inlining and constant propagation: a trace
// records only the path its example inputs took.
bool contains_control_flow(const torch::jit::Block& block) {
  for (const torch::jit::Node* node : block.nodes()) {
    if (node->kind() == c10::prim::If || node->kind() == c10::prim::Loop) return true;
    for (const torch::jit::Block* inner : node->blocks()) {
      if (contains_control_flow(*inner)) return true;
    }
  }
  return false;
}

// How python/export_model.py saves a sparse COO input, which LibTorch's
// unpickler cannot read: ("tracebench.sparse_coo", indices, values, size).
constexpr const char* kSparseCooTag = "tracebench.sparse_coo";

// `value` with every tagged sparse tuple, nested too, made a sparse tensor again.
c10::IValue with_sparse_tensors(const c10::IValue& value) {
  if (value.isTuple()) {
    const auto& elements = value.toTupleRef().elements();
    if (elements.size() == 4 && elements[0].isString() &&
        elements[0].toStringRef() == kSparseCooTag) {
      const auto size = elements[3].toTensor();
      return at::sparse_coo_tensor(elements[1].toTensor(), elements[2].toTensor(),
                                   std::vector<int64_t>(size.data_ptr<int64_t>(),
                                                        size.data_ptr<int64_t>() + size.numel()))
          .coalesce();
    }
    std::vector<c10::IValue> children;
    for (const auto& element : elements) children.push_back(with_sparse_tensors(element));
    return c10::ivalue::Tuple::create(std::move(children));
  }
  if (value.isList()) {
    auto list = value.toList().copy();
    for (size_t i = 0; i < list.size(); ++i) list.set(i, with_sparse_tensors(list.get(i)));
    return list;
  }
  if (value.isGenericDict()) {
    auto dict = value.toGenericDict().copy();
    for (auto& entry : dict) entry.setValue(with_sparse_tensors(entry.value()));
    return dict;
  }
  return value;
}

std::vector<c10::IValue> flatten_inputs(const c10::IValue& value) {
  if (value.isTuple()) {
    std::vector<c10::IValue> inputs;
    for (const auto& element : value.toTupleRef().elements()) {
      inputs.push_back(with_sparse_tensors(element));
    }
    return inputs;
  }
  if (value.isList()) return value.toListRef().vec();
  return {value};
}

class ScriptModel final : public Model {
 public:
  ScriptModel(torch::jit::Module module, std::string class_name, std::string example_inputs_blob,
              std::vector<std::string> output_names, std::vector<std::string> dropped_outputs)
      : module_(std::move(module)),
        class_name_(std::move(class_name)),
        example_inputs_blob_(std::move(example_inputs_blob)),
        output_names_(std::move(output_names)),
        dropped_outputs_(std::move(dropped_outputs)) {}

  c10::IValue forward(const std::vector<c10::IValue>& inputs) override {
    torch::jit::GraphOptimizerEnabledGuard unoptimized(false);
    return module_.forward(inputs);
  }

  std::vector<c10::IValue> example_inputs() override {
    if (!example_inputs_blob_.empty()) {
      std::vector<char> bytes(example_inputs_blob_.begin(), example_inputs_blob_.end());
      return flatten_inputs(torch::jit::pickle_load(bytes));
    }
    if (auto method = module_.find_method("get_example_inputs")) {
      return flatten_inputs((*method)({}));
    }
    throw UsageError("archive of class " + class_name_ +
                     " has no get_example_inputs; export one with @torch.jit.export or pass "
                     "--input-shapes");
  }

  std::vector<torch::Tensor> tensors() override {
    std::vector<torch::Tensor> all;
    for (const auto& p : module_.parameters()) all.push_back(p);
    for (const auto& b : module_.buffers()) all.push_back(b);
    return all;
  }

  std::vector<torch::Tensor> parameters() override {
    std::vector<torch::Tensor> params;
    for (const auto& p : module_.parameters()) params.push_back(p);
    return params;
  }

  std::vector<std::string> output_names() override { return output_names_; }
  std::vector<std::string> dropped_outputs() override { return dropped_outputs_; }

  bool has_control_flow() override {
    auto graph = module_.get_method("forward").graph()->copy();
    torch::jit::Inline(*graph);
    torch::jit::ConstantPropagation(graph);
    return contains_control_flow(*graph->block());
  }

  std::shared_ptr<torch::jit::Graph> frozen_graph() override {
    if (module_.is_training()) return nullptr;  // freezing folds eval-mode behaviour in
    // freeze_module works on a copy: the model itself keeps its attributes.
    auto graph = torch::jit::freeze_module(module_).get_method("forward").graph()->copy();
    torch::jit::EliminateDeadCode(graph);
    // A tensor forward writes stays an attribute of `self`, read at run time.
    if (graph->inputs()[0]->hasUses()) return nullptr;
    graph->eraseInput(0);
    fold_size_arithmetic(*graph);
    return graph;
  }

  void set_training(bool training) override { module_.train(training); }

  // torch.nn's dropout classes, as TorchScript names them
  // (__torch__.torch.nn.modules.dropout.Dropout, ...).
  void disable_dropout() override {
    for (auto module : module_.modules()) {
      const auto type = module.type()->name();
      if (type && type->qualifiedName().find("torch.nn.modules.dropout.") != std::string::npos) {
        module.train(false);
      }
    }
  }

 private:
  torch::jit::Module module_;
  std::string class_name_;
  std::string example_inputs_blob_;
  std::vector<std::string> output_names_;
  std::vector<std::string> dropped_outputs_;
};

// A JSON list of strings, as the exporter writes output paths; empty when the
// archive has no such entry.
std::vector<std::string> parse_output_paths(const std::string& json_text) {
  if (json_text.empty()) return {};
  const auto json = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  std::vector<std::string> names;
  if (!json.is_array()) return names;
  for (const auto& name : json) {
    if (name.is_string()) names.push_back(name.get<std::string>());
  }
  return names;
}

}  // namespace

std::unique_ptr<Model> load_torchscript_model(const std::filesystem::path& archive,
                                              const std::string& class_name) {
  const std::string bytes = read_model_file(archive);  // reports a missing file clearly
  if (bytes.empty()) throw UsageError(archive.string() + " is empty; save it with torch.jit.save");
  torch::jit::ExtraFilesMap extra_files{
      {kExampleInputsEntry, ""}, {kOutputPathsEntry, ""}, {kDroppedOutputsEntry, ""}};
  torch::jit::Module module;
  try {
    module = torch::jit::load(archive.string(), torch::kCPU, extra_files);
  } catch (const c10::Error& error) {
    throw UsageError("cannot read " + archive.string() + " as a TorchScript archive (" +
                     first_line(error.what_without_backtrace()) +
                     "); save the model with torch.jit.save");
  }
  const std::string archive_class = module.type()->name() ? module.type()->name()->name() : "";
  if (archive_class != class_name) {
    throw UsageError(archive.string() + " holds class " + archive_class + ", not " + class_name +
                     "; use class:" + archive_class);
  }
  module.eval();
  return std::make_unique<ScriptModel>(std::move(module), class_name,
                                       extra_files[kExampleInputsEntry],
                                       parse_output_paths(extra_files[kOutputPathsEntry]),
                                       parse_output_paths(extra_files[kDroppedOutputsEntry]));
}

}  // namespace tracebench
