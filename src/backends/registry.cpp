#include "backends/registry.h"

#include <utility>

#include "tracebench/error.h"
#include "util/text.h"

namespace tracebench {

// The built-in backends, one file each in this folder. A new one is its file
// plus a line here and a line in the table below.
std::unique_ptr<Backend> make_eager_backend();                        // eager.cpp
std::unique_ptr<Backend> make_torchscript_backend();                  // torchscript.cpp
std::unique_ptr<Backend> make_optimize_for_inference_backend();       // optimize_for_inference.cpp
std::unique_ptr<Backend> make_optimize_for_inference_bf16_backend();  // ofi_bf16.cpp
std::unique_ptr<Backend> make_int8_dynamic_backend();                 // int8_dynamic.cpp
std::unique_ptr<Backend> make_xnnpack_backend();                      // xnnpack.cpp
std::unique_ptr<Backend> make_onednn_linear_backend();                // onednn_linear.cpp
std::unique_ptr<Backend> make_aot_inductor_backend();                 // aot_inductor.cpp
std::unique_ptr<Backend> make_openvino_backend();                     // openvino.cpp
std::unique_ptr<Backend> make_openvino_bf16_backend();                // openvino.cpp
std::unique_ptr<Backend> make_onnxruntime_backend();                  // onnxruntime.cpp
std::unique_ptr<Backend> make_torch_compile_backend();                // torch_compile.cpp
std::unique_ptr<Backend> make_torch_compile_max_autotune_backend();   // torch_compile.cpp
std::unique_ptr<Backend> make_auto_backend();                         // auto.cpp
std::unique_ptr<Backend> make_lazy_trace_everytime_backend();         // lazy_trace_everytime.cpp
std::unique_ptr<Backend> make_lazy_trace_once_backend();              // lazy_trace_once.cpp
std::unique_ptr<Backend> make_lazy_trace_once_unfrozen_backend();     // lazy_trace_once.cpp

namespace {

using Factory = std::function<std::unique_ptr<Backend>()>;

std::vector<std::pair<std::string, Factory>>& factories() {
  static std::vector<std::pair<std::string, Factory>> all = {
      {"eager", make_eager_backend},
      {"ts", make_torchscript_backend},
      {"ofi", make_optimize_for_inference_backend},
      {"ofi_bf16", make_optimize_for_inference_bf16_backend},
      {"int8_dynamic", make_int8_dynamic_backend},
      {"xnnpack", make_xnnpack_backend},
      {"onednn_linear", make_onednn_linear_backend},
      {"aot_inductor", make_aot_inductor_backend},
      {"openvino", make_openvino_backend},
      {"openvino_bf16", make_openvino_bf16_backend},
      {"onnxruntime", make_onnxruntime_backend},
      {"torch_compile", make_torch_compile_backend},
      {"torch_compile_max_autotune", make_torch_compile_max_autotune_backend},
      {"auto", make_auto_backend},
      {"lazy_trace_everytime", make_lazy_trace_everytime_backend},
      {"lazy_trace_once", make_lazy_trace_once_backend},
      {"lazy_trace_once_unfrozen", make_lazy_trace_once_unfrozen_backend},
  };
  return all;
}

}  // namespace

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : factories()) names.push_back(name);
  return names;
}

std::unique_ptr<Backend> make_backend(const std::string& name) {
  for (const auto& [known, factory] : factories()) {
    if (known == name) return factory();
  }
  throw UsageError("unknown backend '" + name + "'; choose from " + join(backend_names(), ", "));
}

void register_backend(const std::string& name, Factory factory) {
  for (auto& entry : factories()) {
    if (entry.first == name) {
      entry.second = factory;
      return;
    }
  }
  factories().emplace_back(name, factory);
}

}  // namespace tracebench
