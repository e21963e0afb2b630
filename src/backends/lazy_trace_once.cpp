// lazy_trace_once: trace once on LibTorch's lazy tensor core (TorchScript
// backend), then replay the compiled computation with no tracing.
//
// compile: the forward pass is recorded once as lazy IR (parameters resident on
// the lazy device, see lazy_common.h) and synced, which makes LTC lower and
// compile it and put it in its computation cache. The computation is taken
// from that cache by its graph hash (LazyGraphExecutor::GetGraphHash), and
// each of its parameters is mapped to where its data comes from: the lowering
// turns the distinct device-data nodes of the IR, in post-order, into the
// computation's parameters, so walking the same post-order and comparing data
// handles tells which parameter is a model tensor (resident data, kept), which
// is a call input (transferred on each call), and which is a constant scalar
// LTC created while tracing (kept).
//
// run: transfers only the inputs (MakeComputationDataFromTensor), executes the
// computation (ExecuteComputation) and fetches the results
// (MakeTensorFromComputationData): no IR, no hashing, no cache lookup. If an
// input's shape, dtype or a non-tensor input differs from every captured
// signature, the model is traced again for it (counted as a retrace).

#include <torch/csrc/lazy/backend/backend_interface.h>
#include <torch/csrc/lazy/core/ir_util.h>
#include <torch/csrc/lazy/core/lazy_graph_executor.h>
#include <torch/csrc/lazy/core/tensor.h>

#include <sstream>
#include <unordered_map>

#include "backends/builtin.h"
#include "backends/lazy_common.h"
#include "tracebench/error.h"

namespace tracebench {

namespace {

using torch::lazy::BackendDataPtr;

/// Where a computation parameter or a model output comes from.
struct Source {
  enum Kind { kResident, kInput, kConstant, kResult } kind;
  size_t index = 0;      // resident / input / result index
  BackendDataPtr data;   // kResident and kConstant: the device data itself
};

/// A computation captured for one input signature.
struct Capture {
  torch::lazy::ComputationPtr computation;
  std::vector<Source> parameters;  // one per computation parameter, in order
  std::vector<Source> outputs;     // one per flattened model output
  c10::IValue structure;           // the model output's shape (tuple, list, ...)
  size_t results = 0;              // number of computation results
};

std::string signature_of(const std::vector<c10::IValue>& inputs) {
  std::ostringstream out;
  for (const auto& input : inputs) {
    if (input.isTensor()) {
      const auto& tensor = input.toTensor();
      out << "T" << tensor.scalar_type() << tensor.sizes() << ";";
    } else {
      out << "V" << input << ";";
    }
  }
  return out.str();
}

// Device data that LTC itself created while tracing, from a scalar (a wrapped
// number such as the 0.5 of `x * 0.5`, or GetIrValueForScalar): read-only and
// one element. Only trusted as a constant when the trace had no eager
// fallback and was a single graph (checked in capture), since a fallback's
// CPU result re-enters the graph the same way.
bool is_ltc_scalar_constant(const BackendDataPtr& data) {
  auto* info =
      dynamic_cast<torch::lazy::LazyGraphExecutor::DeviceDataInfo*>(data->info());
  return info != nullptr && info->read_only && data->shape().numel() == 1;
}

class LazyTraceOnceModel final : public CompiledModel {
 public:
  explicit LazyTraceOnceModel(lazy::LazyProgram program) : program_(std::move(program)) {
    for (size_t i = 0; i < program_.resident_lazy().size(); ++i) {
      auto data = torch::lazy::GetLtcTensor(program_.resident_lazy()[i])->GetDataHandle();
      resident_index_.emplace(data->GetHandle(), i);
    }
  }

  /// Traces `inputs` and captures the computation; returns the traced result.
  c10::IValue capture(const std::vector<c10::IValue>& inputs) {
    torch::NoGradGuard no_grad;
    Capture capture;
    const auto before = lazy::CompileCounts::now();

    const auto fallbacks_before = lazy::eager_fallback_counts();
    auto lazy_inputs = lazy::to_lazy(inputs);
    std::unordered_map<torch::lazy::BackendData::Handle, size_t> input_index;
    for (size_t i = 0; i < lazy_inputs.size(); ++i) {
      if (!lazy_inputs[i].isTensor()) continue;
      auto data = torch::lazy::GetLtcTensor(lazy_inputs[i].toTensor())->GetDataHandle();
      input_index.emplace(data->GetHandle(), i);
    }
    c10::IValue lazy_out = program_.record_lazy(lazy_inputs);

    for (const auto& [op, count] : lazy::eager_fallback_counts()) {
      auto it = fallbacks_before.find(op);
      TORCH_CHECK(it != fallbacks_before.end() ? it->second == count : count == 0,
                  "lazy_trace_once: ", op, " has no lazy lowering (eager fallback); the forward "
                  "pass cannot be captured as one computation");
    }

    std::vector<at::Tensor> out_tensors;
    lazy::flatten_tensors(lazy_out, out_tensors);
    std::vector<torch::lazy::LazyTensorPtr> ltc;
    for (const auto& tensor : out_tensors) ltc.push_back(torch::lazy::GetLtcTensor(tensor));

    auto classify = [&](const BackendDataPtr& data) -> Source {
      const auto handle = data->GetHandle();
      if (auto it = resident_index_.find(handle); it != resident_index_.end()) {
        return {Source::kResident, it->second, data};
      }
      if (auto it = input_index.find(handle); it != input_index.end()) {
        return {Source::kInput, it->second, nullptr};
      }
      if (is_ltc_scalar_constant(data)) return {Source::kConstant, 0, data};
      auto* info =
          dynamic_cast<torch::lazy::LazyGraphExecutor::DeviceDataInfo*>(data->info());
      TORCH_CHECK(false,
                  "lazy_trace_once: the lazy graph reads device data that is neither a model "
                  "tensor, an input nor a constant (was the forward pass split by an eager "
                  "fallback or a sync?): shape ", data->shape().to_string(), ", tensor id ",
                  info ? info->tensor_id : -2, ", read only ", info ? info->read_only : false,
                  ", info ", data->info() ? "set" : "none");
    };

    // The outputs the sync computes, in the order LTC collects them: first
    // occurrence of each lazy tensor that has pending IR and no data.
    std::unordered_map<int64_t, size_t> result_of_tensor;
    std::vector<const torch::lazy::Node*> roots;
    for (const auto& tensor : ltc) {
      if (tensor->CurrentDataHandle() != nullptr || !tensor->CurrentIrValue()) {
        auto data = tensor->CurrentDataHandle();
        TORCH_CHECK(data, "lazy_trace_once: an output has neither IR nor data");
        capture.outputs.push_back(classify(data));
        continue;
      }
      auto [it, inserted] = result_of_tensor.emplace(tensor->GetUniqueId(), roots.size());
      if (inserted) roots.push_back(tensor->CurrentIrValue().node.get());
      capture.outputs.push_back({Source::kResult, it->second, nullptr});
    }
    capture.results = roots.size();

    // The computation's parameters: distinct device data in post-order.
    std::vector<torch::lazy::Node*> root_nodes;
    for (const auto* node : roots) root_nodes.push_back(const_cast<torch::lazy::Node*>(node));
    std::unordered_map<torch::lazy::BackendData::Handle, size_t> seen;
    for (torch::lazy::Node* node : torch::lazy::Util::ComputePostOrder(root_nodes)) {
      auto data = torch::lazy::getBackend()->GetComputationDataFromNode(node);
      if (!data) continue;
      if (seen.emplace(data->GetHandle(), capture.parameters.size()).second) {
        capture.parameters.push_back(classify(data));
      }
    }

    auto* executor = torch::lazy::LazyGraphExecutor::Get();
    if (!roots.empty()) {
      const auto hash = executor->GetGraphHash(ltc);
      executor->SyncTensorsGraph(&ltc, /*devices=*/{}, /*wait=*/true, /*sync_ltc_data=*/true);
      const auto delta = lazy::CompileCounts::now() - before;
      TORCH_CHECK(delta.cached + delta.uncached == 1,
                  "lazy_trace_once: the forward pass became ", delta.cached + delta.uncached,
                  " lazy graphs, not one (eager fallback or data-dependent sync?)");
      compile_counts_.cached += delta.cached;
      compile_counts_.uncached += delta.uncached;
      auto cached = executor->GetComputationCache()->Get(hash);
      TORCH_CHECK(cached, "lazy_trace_once: computation not found in LTC's cache by graph hash");
      capture.computation = cached->computation;
      TORCH_CHECK(capture.computation->parameters_size() ==
                      static_cast<int>(capture.parameters.size()),
                  "lazy_trace_once: computation has ", capture.computation->parameters_size(),
                  " parameters but the IR has ", capture.parameters.size(), " device data");
    }

    std::vector<at::Tensor> cpu;
    for (const auto& tensor : out_tensors) cpu.push_back(tensor.to(c10::kCPU));
    size_t next = 0;
    capture.structure = lazy::unflatten_tensors(lazy_out, cpu, next);
    captures_.emplace(signature_of(inputs), std::move(capture));
    return captures_.at(signature_of(inputs)).structure;
  }

  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    auto it = captures_.find(signature_of(inputs));
    if (it == captures_.end()) {
      ++retraces_;
      return capture(inputs);
    }
    const Capture& capture = it->second;
    const auto* backend = torch::lazy::getBackend();
    const auto& device = device_;

    std::vector<at::Tensor> results;
    if (capture.computation) {
      std::vector<BackendDataPtr> arguments;
      arguments.reserve(capture.parameters.size());
      for (const auto& source : capture.parameters) {
        if (source.kind == Source::kInput) {
          const auto& tensor = inputs[source.index].toTensor();
          arguments.push_back(backend->MakeComputationDataFromTensor(
              tensor, torch::lazy::Shape(tensor.scalar_type(), tensor.sizes()), device));
        } else {
          arguments.push_back(source.data);
        }
      }
      auto data = backend->ExecuteComputation(capture.computation, arguments, device);
      TORCH_CHECK(data.size() == capture.results, "lazy_trace_once: computation returned ",
                  data.size(), " results, expected ", capture.results);
      results.reserve(data.size());
      for (const auto& result : data) {
        results.push_back(backend->MakeTensorFromComputationData(result, c10::nullopt));
      }
    }
    std::vector<at::Tensor> outputs;
    outputs.reserve(capture.outputs.size());
    for (const auto& source : capture.outputs) {
      switch (source.kind) {
        case Source::kResult: outputs.push_back(results.at(source.index)); break;
        case Source::kInput: outputs.push_back(inputs[source.index].toTensor()); break;
        case Source::kResident: outputs.push_back(program_.resident_cpu()[source.index]); break;
        case Source::kConstant:
          outputs.push_back(backend->MakeTensorFromComputationData(source.data, c10::nullopt));
          break;
      }
    }
    ++replays_;
    size_t next = 0;
    return lazy::unflatten_tensors(capture.structure, outputs, next);
  }

  std::map<std::string, double> counters() const override {
    return {{"ltc_cached_compiles", static_cast<double>(compile_counts_.cached)},
            {"ltc_uncached_compiles", static_cast<double>(compile_counts_.uncached)},
            {"traces", static_cast<double>(captures_.size())},
            {"retraces", static_cast<double>(retraces_)},
            {"replays", static_cast<double>(replays_)}};
  }

 private:
  lazy::LazyProgram program_;
  torch::lazy::BackendDevice device_ = lazy::lazy_backend_device();
  std::unordered_map<torch::lazy::BackendData::Handle, size_t> resident_index_;
  std::unordered_map<std::string, Capture> captures_;
  lazy::CompileCounts compile_counts_;
  int64_t retraces_ = 0;
  int64_t replays_ = 0;
};

class LazyTraceOnceBackend final : public Backend {
 public:
  std::string name() const override { return "lazy_trace_once"; }
  std::string description() const override {
    return "LTC TorchScript backend: trace once, replay the compiled computation per call";
  }
  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
    if (options.mode != Mode::kInference) {
      throw UsageError("lazy_trace_once supports inference only");
    }
    lazy::ensure_lazy_backend();
    auto compiled = std::make_unique<LazyTraceOnceModel>(
        lazy::LazyProgram(lazy::trace_with_parameter_inputs(model, options.example_inputs)));
    compiled->capture(options.example_inputs);
    return compiled;
  }
};

}  // namespace

std::unique_ptr<Backend> make_lazy_trace_once_backend() {
  return std::make_unique<LazyTraceOnceBackend>();
}

}  // namespace tracebench
