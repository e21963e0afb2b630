#pragma once
// Capturing one compiled LTC computation and replaying it without tracing: the
// machinery of lazy_trace_once, for inference and for training.
//
// Syncing lazy tensors makes LTC lower and compile their pending IR and put
// the computation in its cache; capture() takes it from that cache by graph
// hash and maps each of its parameters to where its data comes from. The
// lowering turns the distinct device-data nodes of the IR, in post-order, into
// the computation's parameters, so walking the same post-order and comparing
// data handles tells which parameter is resident state (model tensors, and in
// training gradients too), which is a call input (transferred on each call),
// and which is a constant scalar LTC created while tracing.

#include <torch/csrc/lazy/backend/backend_data.h>
#include <torch/csrc/lazy/backend/lowering_context.h>
#include <torch/csrc/lazy/core/tensor.h>

#include <unordered_map>
#include <vector>

#include "backends/lazy/lazy_common.h"

namespace tracebench::lazy {

using torch::lazy::BackendDataPtr;

/// Where a computation parameter or a captured tensor's value comes from.
struct Source {
  enum Kind { kResident, kInput, kConstant, kResult } kind;
  size_t index = 0;     // resident / input / result index
  BackendDataPtr data;  // kConstant: the device data itself
};

/// Data handles of resident tensors and inputs, to classify device data by.
struct DataIndex {
  std::unordered_map<torch::lazy::BackendData::Handle, size_t> resident;
  std::unordered_map<torch::lazy::BackendData::Handle, size_t> input;
  /// Data handle -> position of each defined tensor (which must have data,
  /// not pending IR); undefined tensors, tensors kept on the CPU
  /// (lazy_can_hold) and non-tensor values are skipped.
  static std::unordered_map<torch::lazy::BackendData::Handle, size_t> of(
      const std::vector<at::Tensor>& lazy_tensors);
  static std::unordered_map<torch::lazy::BackendData::Handle, size_t> of(
      const std::vector<c10::IValue>& lazy_values);
};

/// One compiled computation and how to feed it.
struct Capture {
  torch::lazy::ComputationPtr computation;  // null when nothing was pending
  std::vector<Source> parameters;           // one per computation parameter
  std::vector<Source> tensors;              // one per captured tensor
  size_t results = 0;                       // number of computation results
};

/// While alive, LTC does not cut a long trace into several graphs. By default
/// it syncs a tensor whose pending graph exceeds 100,000 nodes (checked every
/// 5,000 ops) to bound memory; a training iteration of a transformer can pass
/// that, and a cut trace cannot be captured as one computation.
class WholeGraphScope {
 public:
  WholeGraphScope();
  ~WholeGraphScope();
  WholeGraphScope(const WholeGraphScope&) = delete;
  WholeGraphScope& operator=(const WholeGraphScope&) = delete;

 private:
  int saved_trim_size_;
};

/// Fails unless no op of the traced region fell back to eager since `before`
/// (an eager_fallback_counts() snapshot): such a region is not one graph.
void check_no_eager_fallback(const std::map<std::string, int64_t>& before);

/// Fails if LTC compiled anything since `before` (a CompileCounts::now()
/// snapshot): a data-dependent value (.item(), a bool of a tensor) synced the
/// traced region mid-way, so it is not one graph.
void check_no_sync_since(const CompileCounts& before);

/// Syncs `lazy_tensors` (one graph execution, which compiles it) and captures
/// the computation that computed them. Device data the IR reads that is not
/// in `index` was made by the traced ops (scalars, factory results) and is
/// kept as a constant; callers make sure no eager fallback or mid-trace sync
/// brought data in from outside.
Capture capture(const std::vector<at::Tensor>& lazy_tensors, const DataIndex& index,
                CompileCounts& compile_counts);

/// Executes the captured computation: resident data in `resident`, inputs
/// transferred from the CPU. Returns the computation's results.
std::vector<BackendDataPtr> execute(const Capture& capture,
                                    const std::vector<BackendDataPtr>& resident,
                                    const std::vector<c10::IValue>& cpu_inputs);

/// Captured tensor `source` after an execute() that returned `results`, on
/// the CPU.
at::Tensor cpu_tensor_of(const Source& source, const std::vector<BackendDataPtr>& results,
                         const std::vector<BackendDataPtr>& resident,
                         const std::vector<c10::IValue>& cpu_inputs);

/// Captured tensor `source` after an execute() that returned `results`, as
/// device data (for resident state carried to the next call; never an input).
BackendDataPtr device_data_of(const Source& source, const std::vector<BackendDataPtr>& results,
                              const std::vector<BackendDataPtr>& resident);

}  // namespace tracebench::lazy
