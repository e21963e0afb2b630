#include "execution/execution_settings.h"

#include <torch/script.h>

#include <cstdlib>

#include "execution/child_phase.h"
#include "execution/shape_set.h"
#include "measure/openblas.h"
#include "tracebench/error.h"

namespace tracebench {

void apply_process_settings(const RunOptions& options, const RunPoint& point) {
  torch::set_num_threads(static_cast<int>(point.threads));
  if (std::getenv("OPENBLAS_NUM_THREADS") == nullptr) set_openblas_threads(1);
  if (options.flush_denormal && !at::globalContext().setFlushDenormal(true)) {
    throw UsageError("--flush-denormal: this CPU has no flush-to-zero mode (SSE3 needed)");
  }
}

c10::ScalarType storage_dtype(Precision precision) {
  return precision == Precision::kBFloat16 ? torch::kBFloat16 : torch::kFloat32;
}

void cast_model(Model& model, c10::ScalarType dtype) {
  torch::NoGradGuard no_grad;
  for (auto& tensor : model.tensors()) {
    // set_data keeps the tensor object, so modules' members see the change.
    if (tensor.is_floating_point() && tensor.scalar_type() != dtype)
      tensor.set_data(tensor.to(dtype));
  }
}

CompileOptions compile_options_for(const ModelRun& run, std::vector<c10::IValue> example_inputs) {
  const RunOptions& options = run.request;
  CompileOptions compile_options;
  compile_options.mode = options.mode;
  compile_options.precision = options.precision;
  compile_options.auto_tolerance = options.auto_tolerance;
  compile_options.threads = run.point.threads;
  compile_options.streams = options.streams;
  compile_options.auto_skip = run.auto_skip;
  compile_options.on_auto_candidate = [](const std::string& candidate) {
    publish_child_phase(ChildPhase::kCompiling, "auto", /*baseline=*/false, candidate);
  };
  compile_options.example_inputs = std::move(example_inputs);
  if (const auto shapes = parse_shape_set(options.shape_set); !shapes.empty()) {
    compile_options.dynamic_dim = shapes.dim;
    compile_options.shape_set_inputs = inputs_at_each_size(compile_options.example_inputs, shapes);
  }
  return compile_options;
}

}  // namespace tracebench
