#include "backends/lazy/lazy_common.h"

#include "backends/lazy/flat_inputs.h"
#include "backends/lazy/lazy_kernels.h"
#include "backends/lazy/lazy_rewrites.h"
#include "tracebench/tracing.h"
#include "util/tensor_tree.h"

#include <torch/csrc/jit/ir/constants.h>
#include <torch/csrc/jit/passes/dead_code_elimination.h>
#include <torch/csrc/lazy/backend/backend_interface.h>
#include <torch/csrc/lazy/core/metrics.h>
#include <torch/csrc/lazy/core/tensor.h>
#include <torch/csrc/lazy/ts_backend/ts_backend_impl.h>

#include <mutex>

#include "tracebench/error.h"

namespace tracebench::lazy {

void ensure_lazy_backend() {
  static std::once_flag once;
  std::call_once(once, [] {
    torch::lazy::InitTorchScriptBackend();
    register_lazy_kernels();
  });
  // 1.13's TS backend picks CUDA when LTC_TS_CUDA is set or
  // FLAGS_torch_lazy_ts_cuda is on; this build has no CUDA and the benchmark
  // compares against CPU eager, so insist on the CPU.
  const auto* backend = torch::lazy::getBackend();
  TORCH_CHECK(backend->EagerFallbackDeviceType() == c10::kCPU,
              "the LTC TorchScript backend is not set to the CPU (unset LTC_TS_CUDA)");
}

c10::Device lazy_device() { return c10::Device(c10::kLazy, 0); }

torch::lazy::BackendDevice lazy_backend_device() {
  return torch::lazy::getBackend()->GetBackendDevice(lazy_device());
}

namespace {

// Turns tensor constants of the (top-level) graph into inputs inserted at
// `position`, returning their values. Nested blocks do not occur in traces.
std::vector<at::Tensor> lift_tensor_constants(torch::jit::Graph& graph, size_t position) {
  std::vector<at::Tensor> lifted;
  for (auto it = graph.nodes().begin(); it != graph.nodes().end();) {
    torch::jit::Node* node = *it;
    ++it;
    for (torch::jit::Block* block : node->blocks()) {
      for (torch::jit::Node* inner : block->nodes()) {
        TORCH_CHECK(inner->kind() != c10::prim::Constant ||
                        !inner->output()->type()->isSubtypeOf(*c10::TensorType::get()),
                    "lazy backends: tensor constant inside a nested block is not supported");
      }
    }
    if (node->kind() != c10::prim::Constant ||
        !node->output()->type()->isSubtypeOf(*c10::TensorType::get())) {
      continue;
    }
    auto value = torch::jit::toIValue(node->output());
    TORCH_INTERNAL_ASSERT(value && value->isTensor());
    torch::jit::Value* input = graph.insertInput(position + lifted.size());
    input->setType(node->output()->type());
    node->output()->replaceAllUsesWith(input);
    node->destroy();
    lifted.push_back(value->toTensor());
  }
  return lifted;
}

}  // namespace

void redirect_device_constants(torch::jit::Graph& graph, c10::DeviceType from, c10::Device to) {
  for (auto it = graph.nodes().begin(); it != graph.nodes().end();) {
    torch::jit::Node* node = *it;
    ++it;
    if (node->kind() != c10::prim::Constant ||
        node->output()->type()->kind() != c10::TypeKind::DeviceObjType) {
      continue;
    }
    auto value = torch::jit::toIValue(node->output());
    if (!value || !value->isDevice() || value->toDevice().type() != from) continue;
    torch::jit::WithInsertPoint guard(node);
    torch::jit::Value* replacement = graph.insertConstant(c10::IValue(to));
    node->output()->replaceAllUsesWith(replacement);
    node->destroy();
  }
}

namespace {

// `graph` over [resident..., inputs...] with its tensor constants lifted to
// residents after them and made ready for the lazy device.
ParameterizedGraph parameterized(std::shared_ptr<torch::jit::Graph> graph,
                                 std::vector<at::Tensor> resident, size_t input_count, Mode mode) {
  auto lifted = lift_tensor_constants(*graph, resident.size());
  redirect_device_constants(*graph, c10::kCPU, lazy_device());
  use_lazy_lowerable_ops(*graph, mode);
  if (mode == Mode::kTraining) give_convolutions_a_zero_bias(*graph);
  torch::jit::EliminateDeadCode(graph);
  for (auto& tensor : lifted) resident.push_back(tensor);
  TORCH_INTERNAL_ASSERT(graph->inputs().size() == resident.size() + input_count);
  return {graph, std::move(resident)};
}

}  // namespace

ParameterizedGraph trace_with_parameter_inputs(Model& model, const std::vector<c10::IValue>& inputs,
                                               Mode mode) {
  torch::NoGradGuard no_grad;
  auto graph = trace_model_graph_with_tensor_inputs(model, inputs);
  auto resident = model.tensors();
  flatten_graph_inputs(*graph, resident.size(), inputs);
  return parameterized(graph, std::move(resident), flat_inputs(inputs).size(), mode);
}

ParameterizedGraph inference_graph_with_parameter_inputs(Model& model,
                                                         const CompileOptions& options) {
  if (auto graph = shape_set_graph(model, options)) {
    flatten_graph_inputs(*graph, 0, options.example_inputs);
    // Its parameters are constants: lifted, they are the residents.
    return parameterized(graph, {}, flat_inputs(options.example_inputs).size(), Mode::kInference);
  }
  return trace_with_parameter_inputs(model, options.example_inputs);
}

at::Tensor to_lazy_data(const at::Tensor& tensor) {
  at::Tensor lazy = tensor.detach().to(lazy_device());
  // Give the lazy tensor its device data now. Otherwise its first use would
  // create an anonymous DeviceData IR node, and the tensor itself would count
  // as pending IR at the next sync (an extra graph output).
  torch::lazy::GetLtcTensor(lazy)->GetDataHandle();
  return lazy;
}

bool lazy_can_hold(const at::Tensor& tensor) {
  return !tensor.is_nested() && tensor.layout() == c10::kStrided;
}

at::Tensor to_lazy_where_it_can(const at::Tensor& tensor) {
  return lazy_can_hold(tensor) ? to_lazy_data(tensor) : tensor;
}

std::vector<c10::IValue> to_lazy(const std::vector<c10::IValue>& inputs) {
  std::vector<c10::IValue> lazy;
  lazy.reserve(inputs.size());
  for (const auto& input : inputs) {
    if (input.isTensor()) {
      lazy.emplace_back(to_lazy_where_it_can(input.toTensor()));
    } else {
      lazy.push_back(input);
    }
  }
  return lazy;
}

LazyProgram::LazyProgram(ParameterizedGraph traced)
    : graph_(std::move(traced.graph)),
      // The plain interpreter: no profiling, no specialization. It only has to
      // dispatch each op once to the lazy tensors, which record them.
      code_(graph_, "tracebench_lazy_forward"),
      resident_cpu_(std::move(traced.resident)) {
  torch::NoGradGuard no_grad;
  resident_lazy_.reserve(resident_cpu_.size());
  for (const auto& tensor : resident_cpu_) {
    resident_lazy_.push_back(to_lazy_where_it_can(tensor));
  }
}

c10::IValue LazyProgram::record(const std::vector<c10::IValue>& cpu_inputs) const {
  return record_lazy(to_lazy(cpu_inputs));
}

c10::IValue LazyProgram::record_lazy(const std::vector<c10::IValue>& lazy_inputs) const {
  torch::jit::Stack stack;
  stack.reserve(resident_lazy_.size() + lazy_inputs.size());
  for (const auto& tensor : resident_lazy_) stack.emplace_back(tensor);
  for (const auto& input : lazy_inputs) stack.push_back(input);
  torch::jit::InterpreterState(code_).run(stack);
  TORCH_INTERNAL_ASSERT(stack.size() == 1);
  return stack.front();
}

void flatten_tensors(const c10::IValue& value, std::vector<at::Tensor>& out) {
  for_each_tensor(value, [&out](const at::Tensor& tensor) { out.push_back(tensor); });
}

c10::IValue unflatten_tensors(const c10::IValue& like, const std::vector<at::Tensor>& tensors,
                              size_t& next) {
  return map_tensors(like, [&](const at::Tensor&) { return tensors.at(next++); });
}

std::map<std::string, int64_t> eager_fallback_counts() {
  std::map<std::string, int64_t> counts;
  for (const auto& name : torch::lazy::GetCounterNames()) {
    if (name.rfind("aten::", 0) != 0) continue;
    if (auto* counter = torch::lazy::GetCounter(name)) counts[name] = counter->Value();
  }
  return counts;
}

std::map<std::string, int64_t> fallbacks_since(const std::map<std::string, int64_t>& before) {
  std::map<std::string, int64_t> since;
  for (const auto& [op, count] : eager_fallback_counts()) {
    auto it = before.find(op);
    const int64_t delta = count - (it == before.end() ? 0 : it->second);
    if (delta > 0) since[op] = delta;
  }
  return since;
}

CompileCounts CompileCounts::now() {
  auto value = [](const char* name) -> int64_t {
    auto* counter = torch::lazy::GetCounter(name);
    return counter ? counter->Value() : 0;
  };
  return {value("CachedCompile"), value("UncachedCompile")};
}

}  // namespace tracebench::lazy
