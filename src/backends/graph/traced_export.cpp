#include "backends/graph/traced_export.h"

#include <torch/csrc/jit/serialization/pickle.h>

#include <fstream>
#include <iterator>

#include "tracebench/tracing.h"
#include "util/build_config.h"
#include "util/cache.h"
#include "util/python_interpreter.h"
#include "util/scratch_directory.h"
#include "util/subprocess.h"
#include "util/tensor_tree.h"

namespace tracebench {

namespace {

namespace fs = std::filesystem;
using torch::jit::Value;

// The exporter exits with this where the model is beyond it by design.
constexpr int kExitUnsupported = 3;

void write_example_inputs(const std::vector<c10::IValue>& inputs, const fs::path& path) {
  // torch::pickle_save writes what Python's torch.load reads.
  const auto bytes = torch::pickle_save(c10::ivalue::Tuple::create(inputs));
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The exporter's one-line verdict (its last line: "onnx export unsupported:
// ..."), else the first error line.
std::string export_verdict(const CommandResult& result, const std::string& tool) {
  const auto at = result.output.rfind(tool + " export ");
  if (at == std::string::npos) {
    return "the exporter exited with " + std::to_string(result.exit_code) + ": " +
           first_lines_containing(result.output, "Error", 1);
  }
  return result.output.substr(at, result.output.find('\n', at) - at);
}

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The tensors a traced graph's output is made of, in for_each_tensor's order:
// tuples, lists and dicts (values in insertion order) are opened; constants
// (None, numbers) are left out, as refill_outputs keeps them from the model.
void collect_output_tensors(Value* value, std::vector<Value*>& tensors) {
  if (value->type()->cast<c10::TensorType>()) {
    tensors.push_back(value);
    return;
  }
  auto* node = value->node();
  const auto kind = node->kind();
  if (kind == c10::prim::TupleConstruct || kind == c10::prim::ListConstruct) {
    for (auto* element : node->inputs()) collect_output_tensors(element, tensors);
  } else if (kind == c10::prim::DictConstruct) {
    for (size_t i = 1; i < node->inputs().size(); i += 2) {
      collect_output_tensors(node->inputs()[i], tensors);
    }
  } else if (kind != c10::prim::Constant) {
    throw UnsupportedModel("the model's output " + value->debugName() + " is a " +
                           value->type()->str() + " made by " + kind.toQualString() +
                           ", not tensors in tuples, lists or dicts");
  }
}

// The graph returning its output's tensors as one flat tuple.
std::shared_ptr<torch::jit::Graph> with_flat_outputs(std::shared_ptr<torch::jit::Graph> graph) {
  std::vector<Value*> tensors;
  collect_output_tensors(graph->outputs().at(0), tensors);
  graph->eraseOutput(0);
  auto* tuple = graph->insertNode(graph->createTuple(tensors))->output();
  graph->registerOutput(tuple);
  torch::jit::EliminateDeadCode(graph);
  return graph;
}

// A dropout of probability 0 is the identity, in training mode too; exporters
// may not see it so: torchvision 0.14's Swin calls dropout(p=0.0,
// training=True) in eval, which ONNX keeps as a training-mode Dropout that
// OpenVINO refuses to convert.
void remove_zero_dropouts(torch::jit::Graph& graph) {
  std::vector<torch::jit::Node*> identities;
  for (auto* node : graph.nodes()) {
    const auto kind = node->kind();
    if (kind != c10::aten::dropout && kind != c10::aten::feature_dropout &&
        kind != c10::aten::alpha_dropout) {
      continue;
    }
    const auto p = torch::jit::toIValue(node->input(1));
    if (p && p->isDouble() && p->toDouble() == 0.0) identities.push_back(node);
  }
  for (auto* node : identities) {
    node->output()->replaceAllUsesWith(node->input(0));
    node->destroy();
  }
}

}  // namespace

std::vector<at::Tensor> tensor_inputs(const std::vector<c10::IValue>& inputs,
                                      const std::string& what) {
  std::vector<at::Tensor> tensors;
  for (size_t index = 0; index < inputs.size(); ++index) {
    if (!holds_tensors_only(inputs[index])) {
      throw UnsupportedModel(what +
                             " takes tensors only (alone, or in tuples, lists and dicts), "
                             "and input " +
                             std::to_string(index) + " holds a " +
                             first_non_tensor_kind(inputs[index]));
    }
    for_each_tensor(inputs[index], [&](const at::Tensor& tensor) {
      if (tensor.is_sparse()) {
        throw UnsupportedModel(what + " takes dense tensors, and input " + std::to_string(index) +
                               " holds a sparse one; ts and ofi take it");
      }
      tensors.push_back(tensor);
    });
  }
  return tensors;
}

void save_trace(Model& model, const CompileOptions& options, bool flatten_outputs,
                TensorConstants constants, const fs::path& module, const fs::path& inputs) {
  auto graph = inference_graph(model, options);
  remove_zero_dropouts(*graph);
  if (flatten_outputs) graph = with_flat_outputs(graph);
  module_of_graph(graph, constants).save(module.string());
  write_example_inputs(options.example_inputs, inputs);
}

ExportedModel export_traced_model(Model& model, const CompileOptions& options,
                                  const Exporter& exporter) {
  ScratchDirectory scratch(exporter.cache_folder);
  const auto module = scratch / "traced.pt";
  const auto inputs = scratch / "inputs.pkl";
  save_trace(model, options, exporter.flatten_outputs, exporter.constants, module, inputs);

  const auto partial = scratch / ("exported" + exporter.extension);
  std::vector<std::string> command = {exporter.python, exporter.script, "--module",
                                      module.string(), "--inputs",      inputs.string(),
                                      "--output",      partial.string()};
  // --shape-set: every exporter makes that dimension dynamic where it can.
  if (options.dynamic_dim) {
    command.insert(command.end(), {"--dynamic-dim", std::to_string(*options.dynamic_dim)});
  }
  command.insert(command.end(), exporter.arguments.begin(), exporter.arguments.end());

  // What makes the file: the trace, the example inputs' shapes, the exporter
  // (its script and the module every exporter imports beside it) and the torch
  // that runs it, what the exporter adds, and the dynamic dim.
  const auto shared_module = fs::path(exporter.script).parent_path() / "traced_exporter.py";
  std::string key = file_bytes(module) + '\0' + file_bytes(inputs) + '\0' +
                    file_bytes(exporter.script) + '\0' + file_bytes(shared_module) + '\0' +
                    exporter.python + '\0' + TORCH_VERSION;
  for (const auto& extra : exporter.key_extras) key += '\0' + extra;
  for (const auto& argument : exporter.arguments) key += '\0' + argument;
  if (options.dynamic_dim)
    key += std::string(1, '\0') + "dynamic_dim " + std::to_string(*options.dynamic_dim);
  const auto dir = cache_directory() / exporter.cache_folder;
  fs::create_directories(dir);
  ExportedModel exported;
  exported.file = dir / (content_hash(key) + exporter.extension);
  exported.output_structure = model.forward(options.example_inputs);
  exported.cached = cached_artifact_is_current(exported.file);
  if (exported.cached) return exported;

  const auto result = run_command(command);
  if (result.exit_code == kExitUnsupported) {
    throw UnsupportedModel(export_verdict(result, exporter.tool));
  }
  if (result.exit_code != 0) throw std::runtime_error(export_verdict(result, exporter.tool));
  write_dependency_manifest(exported.file, {});  // the key covers every input
  replace_file(partial, exported.file);
  return exported;
}

void require_float32(const std::string& backend, Precision precision) {
  if (precision == Precision::kFloat32) return;
  throw UnsupportedModel(backend + " takes the float32 model (its precision is its own): drop " +
                         (precision == Precision::kBFloat16 ? "--bfloat16" : "--amp"));
}

ExportedModel export_onnx(Model& model, const CompileOptions& options) {
  tensor_inputs(options.example_inputs, "an ONNX graph");  // unsupported before any work
  Exporter exporter;
  exporter.tool = "onnx";
  exporter.script = build_config::kOnnxExporter;
  exporter.python = python_interpreter();
  exporter.cache_folder = "onnx";
  exporter.extension = ".onnx";
  exporter.flatten_outputs = true;
  return export_traced_model(model, options, exporter);
}

c10::IValue refill_outputs(const c10::IValue& structure, const std::vector<at::Tensor>& flat,
                           const std::string& what) {
  size_t next = 0;
  auto result = map_tensors(structure, [&](const at::Tensor&) {
    TORCH_CHECK(next < flat.size(), what, " returned ", flat.size(),
                " tensors, fewer than the model");
    return flat[next++];
  });
  TORCH_CHECK(next == flat.size(), what, " returned ", flat.size(), " tensors, the model ", next);
  return result;
}

}  // namespace tracebench
