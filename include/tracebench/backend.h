#pragma once
/// The backend interface: how a model is turned into something the timer calls.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tracebench/model.h"

namespace tracebench {

enum class Mode { kInference, kTraining };

/// --float32 (default), --bfloat16 (model and float inputs cast), --amp (CPU
/// autocast to bfloat16 around every call).
enum class Precision { kFloat32, kBFloat16, kAmp };

/// What a backend may use while compiling.
struct CompileOptions {
  Mode mode = Mode::kInference;
  Precision precision = Precision::kFloat32;
  /// Inputs representative of every later call (tracing backends record with them).
  std::vector<c10::IValue> example_inputs;
};

/// A compiled model: the thing that is timed. `run` must return outputs on the
/// CPU and must have finished all its work when it returns.
class CompiledModel {
 public:
  virtual ~CompiledModel() = default;
  virtual c10::IValue run(const std::vector<c10::IValue>& inputs) = 0;
  /// Backend-specific counters worth reporting (e.g. cache hits), name -> value.
  virtual std::map<std::string, double> counters() const { return {}; }
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  /// One line for `tracebench list`.
  virtual std::string description() const = 0;
  /// Whether compile() accepts Mode::kTraining: the compiled model's outputs
  /// must then stay connected to the model's parameters through autograd.
  virtual bool supports_training() const { return false; }
  /// Compiles `model`. May throw: the runner turns that into a `fail_to_run` row.
  virtual std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) = 0;
};

}  // namespace tracebench
