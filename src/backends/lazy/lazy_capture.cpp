#include "backends/lazy/lazy_capture.h"

#include <torch/csrc/lazy/backend/backend_interface.h>
#include <torch/csrc/lazy/core/config.h>
#include <torch/csrc/lazy/core/ir_util.h>
#include <torch/csrc/lazy/core/lazy_graph_executor.h>
#include <torch/version.h>

#include <limits>
#include <unordered_set>

namespace tracebench::lazy {

namespace {

// LibTorch 2.0 made the post-order walk const (ComputePostOrder takes and
// returns const Node*); 1.13's GetComputationDataFromNode wants a mutable one.
#if TORCH_VERSION_MAJOR >= 2
using PostOrderNode = const torch::lazy::Node*;
BackendDataPtr data_of_node(const torch::lazy::Node* node) {
  return torch::lazy::getBackend()->GetComputationDataFromNode(node);
}
#else
using PostOrderNode = torch::lazy::Node*;
BackendDataPtr data_of_node(const torch::lazy::Node* node) {
  return torch::lazy::getBackend()->GetComputationDataFromNode(
      const_cast<torch::lazy::Node*>(node));
}
#endif

// Device data that is neither resident state nor an input was made while
// tracing by the traced ops themselves: a wrapped scalar (the 0.5 of
// `x * 0.5`), or a factory op's result (LTC 1.13 creates ones, arange, full
// as device data from their constant arguments). With no eager fallback in
// the traced region (checked by the callers, and a single graph checked in
// capture) nothing else can enter it, so replays may reuse it: a constant.
using Handle = torch::lazy::BackendData::Handle;

Source classify(const BackendDataPtr& data, const DataIndex& index) {
  const auto handle = data->GetHandle();
  if (auto it = index.resident.find(handle); it != index.resident.end()) {
    return {Source::kResident, it->second, nullptr};
  }
  if (auto it = index.input.find(handle); it != index.input.end()) {
    return {Source::kInput, it->second, nullptr};
  }
  return {Source::kConstant, 0, data};
}

at::Tensor to_cpu(const BackendDataPtr& data) {
  return torch::lazy::getBackend()->MakeTensorFromComputationData(data, c10::nullopt);
}

}  // namespace

std::unordered_map<torch::lazy::BackendData::Handle, size_t> DataIndex::of(
    const std::vector<at::Tensor>& lazy_tensors) {
  std::unordered_map<torch::lazy::BackendData::Handle, size_t> index;
  for (size_t i = 0; i < lazy_tensors.size(); ++i) {
    if (!lazy_tensors[i].defined() || lazy_tensors[i].device().type() != c10::kLazy) continue;
    auto data = torch::lazy::GetLtcTensor(lazy_tensors[i])->CurrentDataHandle();
    TORCH_INTERNAL_ASSERT(data, "lazy tensor ", i, " has pending IR, not data");
    index.emplace(data->GetHandle(), i);
  }
  return index;
}

std::unordered_map<torch::lazy::BackendData::Handle, size_t> DataIndex::of(
    const std::vector<c10::IValue>& lazy_values) {
  std::vector<at::Tensor> tensors;
  tensors.reserve(lazy_values.size());
  for (const auto& value : lazy_values)
    tensors.push_back(value.isTensor() ? value.toTensor() : at::Tensor());
  return of(tensors);
}

WholeGraphScope::WholeGraphScope() : saved_trim_size_(FLAGS_torch_lazy_trim_graph_size) {
  FLAGS_torch_lazy_trim_graph_size = std::numeric_limits<int>::max();
}

WholeGraphScope::~WholeGraphScope() { FLAGS_torch_lazy_trim_graph_size = saved_trim_size_; }

void check_no_eager_fallback(const std::map<std::string, int64_t>& before) {
  const auto fallbacks = fallbacks_since(before);
  TORCH_CHECK(fallbacks.empty(), "lazy_trace_once: ", fallbacks.begin()->first,
              " has no lazy lowering (eager fallback); the traced region cannot be captured "
              "as one computation");
}

void check_no_sync_since(const CompileCounts& before) {
  const auto delta = CompileCounts::now() - before;
  TORCH_CHECK(delta.cached + delta.uncached == 0,
              "lazy_trace_once: the traced region synced mid-way (a data-dependent value such as "
              ".item() or a tensor's bool); it cannot be captured as one computation");
}

Capture capture(const std::vector<at::Tensor>& lazy_tensors, const DataIndex& index,
                CompileCounts& compile_counts) {
  Capture capture;
  const auto before = CompileCounts::now();
  std::vector<torch::lazy::LazyTensorPtr> ltc;
  for (const auto& tensor : lazy_tensors) ltc.push_back(torch::lazy::GetLtcTensor(tensor));

  // The results the sync computes, in the order LTC collects them: first
  // occurrence of each lazy tensor that has pending IR and no data.
  std::unordered_map<int64_t, size_t> result_of_tensor;
  std::vector<PostOrderNode> roots;
  for (const auto& tensor : ltc) {
    if (tensor->CurrentDataHandle() != nullptr || !tensor->CurrentIrValue()) {
      auto data = tensor->CurrentDataHandle();
      TORCH_CHECK(data, "lazy_trace_once: a captured tensor has neither IR nor data");
      capture.tensors.push_back(classify(data, index));
      continue;
    }
    auto [it, inserted] = result_of_tensor.emplace(tensor->GetUniqueId(), roots.size());
    if (inserted) roots.push_back(tensor->CurrentIrValue().node.get());
    capture.tensors.push_back({Source::kResult, it->second, nullptr});
  }
  capture.results = roots.size();

  // The computation's parameters: distinct device data in post-order.
  const auto post_order = torch::lazy::Util::ComputePostOrder(roots);
  std::unordered_set<Handle> seen;
  for (PostOrderNode node : post_order) {
    auto data = data_of_node(node);
    if (!data) continue;
    if (seen.insert(data->GetHandle()).second) {
      capture.parameters.push_back(classify(data, index));
    }
  }
  if (roots.empty()) return capture;

  auto* executor = torch::lazy::LazyGraphExecutor::Get();
  const auto hash = executor->GetGraphHash(ltc);
  executor->SyncTensorsGraph(&ltc, /*devices=*/{}, /*wait=*/true, /*sync_ltc_data=*/true);
  const auto delta = CompileCounts::now() - before;
  TORCH_CHECK(delta.cached + delta.uncached == 1, "lazy_trace_once: the traced region became ",
              delta.cached + delta.uncached,
              " lazy graphs, not one (eager fallback or data-dependent sync?)");
  compile_counts.cached += delta.cached;
  compile_counts.uncached += delta.uncached;
  auto cached = executor->GetComputationCache()->Get(hash);
  TORCH_CHECK(cached, "lazy_trace_once: computation not found in LTC's cache by graph hash");
  capture.computation = cached->computation;
  TORCH_CHECK(capture.computation->parameters_size() == static_cast<int>(capture.parameters.size()),
              "lazy_trace_once: computation has ", capture.computation->parameters_size(),
              " parameters but the IR has ", capture.parameters.size(), " device data");
  return capture;
}

std::vector<BackendDataPtr> execute(const Capture& capture,
                                    const std::vector<BackendDataPtr>& resident,
                                    const std::vector<c10::IValue>& cpu_inputs) {
  if (!capture.computation) return {};
  const auto* backend = torch::lazy::getBackend();
  const auto device = lazy_backend_device();
  std::vector<BackendDataPtr> arguments;
  arguments.reserve(capture.parameters.size());
  for (const auto& source : capture.parameters) {
    switch (source.kind) {
      case Source::kInput: {
        const auto& tensor = cpu_inputs.at(source.index).toTensor();
        arguments.push_back(backend->MakeComputationDataFromTensor(
            tensor, torch::lazy::Shape(tensor.scalar_type(), tensor.sizes()), device));
        break;
      }
      case Source::kResident:
        arguments.push_back(resident.at(source.index));
        break;
      case Source::kConstant:
        arguments.push_back(source.data);
        break;
      case Source::kResult:
        TORCH_INTERNAL_ASSERT(false, "a parameter cannot be a result");
    }
  }
  auto results = backend->ExecuteComputation(capture.computation, arguments, device);
  TORCH_CHECK(results.size() == capture.results, "lazy_trace_once: computation returned ",
              results.size(), " results, expected ", capture.results);
  return results;
}

at::Tensor cpu_tensor_of(const Source& source, const std::vector<BackendDataPtr>& results,
                         const std::vector<BackendDataPtr>& resident,
                         const std::vector<c10::IValue>& cpu_inputs) {
  if (source.kind == Source::kInput) return cpu_inputs.at(source.index).toTensor();
  return to_cpu(device_data_of(source, results, resident));
}

BackendDataPtr device_data_of(const Source& source, const std::vector<BackendDataPtr>& results,
                              const std::vector<BackendDataPtr>& resident) {
  switch (source.kind) {
    case Source::kResult:
      return results.at(source.index);
    case Source::kResident:
      return resident.at(source.index);
    case Source::kConstant:
      return source.data;
    case Source::kInput:
      break;
  }
  TORCH_CHECK(false, "lazy_trace_once: resident state would alias a call input");
}

}  // namespace tracebench::lazy
