// aot_inductor: PyTorch 2.x's C++ deployment path. The model is traced into a
// TorchScript module, which PyTorch's Python turns into an ExportedProgram and
// compiles with AOTInductor, freezing on (python/export_aot_inductor.py); C++
// then loads the .pt2 package and runs it with AOTIModelPackageLoader. The
// export and compile are the row's compilation latency; a package already in
// the cache (same trace, inputs, torch and CPU) is loaded instead, and the
// row's `package_cached` counter says so. On LibTorch 1.x the
// backend exists but says why it cannot run (docs/pytorch2.md).

#include <torch/version.h>

#include "tracebench/tracing.h"

#if TORCH_VERSION_MAJOR >= 2
#include <stdlib.h>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "backends/graph_module.h"
#include "build_config.h"
#include "measure/environment.h"
#include "util/cache.h"
#include "util/python_interpreter.h"
#include "util/subprocess.h"
#include "util/tensor_tree.h"
#endif

namespace tracebench {

namespace {

#if TORCH_VERSION_MAJOR >= 2

namespace fs = std::filesystem;

// A directory of its own for the exporter's files, removed with the object.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    std::string pattern = (fs::temp_directory_path() / "tracebench-aoti-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("cannot make a directory in " + fs::temp_directory_path().string());
    }
    path_ = pattern;
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

std::vector<at::Tensor> tensor_inputs(const std::vector<c10::IValue>& inputs) {
  std::vector<at::Tensor> tensors;
  for (const auto& input : inputs) {
    if (!input.isTensor()) {
      throw UnsupportedModel("the package takes tensors only, and input " +
                             std::to_string(tensors.size()) + " is a " + input.tagKind());
    }
    tensors.push_back(input.toTensor());
  }
  return tensors;
}

void write_example_inputs(const std::vector<c10::IValue>& inputs, const fs::path& path) {
  // torch::pickle_save writes what Python's torch.load reads.
  const auto bytes = torch::pickle_save(c10::ivalue::Tuple::create(inputs));
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The exporter's one-line verdict (its last line), else the first error line.
std::string export_verdict(const CommandResult& result) {
  const std::string tool = "aot_inductor ";  // the row names the backend already
  const auto at = result.output.rfind(tool + "export ");
  if (at == std::string::npos) {
    return "the exporter exited with " + std::to_string(result.exit_code) + ": " +
           first_lines_containing(result.output, "Error", 1);
  }
  const auto start = at + tool.size();
  return result.output.substr(start, result.output.find('\n', start) - start);
}

// The package takes and returns flat tensor lists (torch.export's pytree
// flattening); run() gives back the model's own structure (dicts, tuples),
// refilled from a call of the model, in for_each_tensor's order.
class AotInductorModel final : public CompiledModel {
 public:
  AotInductorModel(const fs::path& package, c10::IValue output_structure)
      : loader_(package.string()), output_structure_(std::move(output_structure)) {}

  std::map<std::string, double> counters() const override { return counters_; }
  void set_counter(const std::string& name, double value) { counters_[name] = value; }

  c10::IValue run(const std::vector<c10::IValue>& inputs) override {
    auto outputs = loader_.run(tensor_inputs(inputs));
    size_t next = 0;
    auto result = map_tensors(output_structure_, [&](const at::Tensor&) {
      TORCH_CHECK(next < outputs.size(), "aot_inductor: the package returned ", outputs.size(),
                  " tensors, fewer than the model");
      return outputs[next++];
    });
    TORCH_CHECK(next == outputs.size(), "aot_inductor: the package returned ", outputs.size(),
                " tensors, the model ", next);
    return result;
  }

 private:
  torch::inductor::AOTIModelPackageLoader loader_;
  c10::IValue output_structure_;
  std::map<std::string, double> counters_;
};

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// What makes a package: the trace, the example inputs' shapes, the exporter
// and the torch that runs it, and this CPU's features (inductor compiles
// with -march=native).
std::string package_key(const fs::path& module, const fs::path& inputs) {
  std::string key = file_bytes(module) + '\0' + file_bytes(inputs) + '\0' +
                    file_bytes(build_config::kAotInductorExporter) + '\0' + python_interpreter() +
                    '\0' + TORCH_VERSION;
  for (const auto& flag : this_cpu_kernel_flags()) key += '\0' + flag;
  return content_hash(key);
}

// The package for `model`'s trace, compiled by the exporter unless the cache
// has it (the row's `package_cached` counter says which).
fs::path compiled_package(Model& model, const CompileOptions& options, bool& cached) {
  ScratchDirectory scratch;
  const auto module = scratch / "traced.pt";
  const auto inputs = scratch / "inputs.pkl";
  module_of_graph(trace_model_graph(model, options.example_inputs), TensorConstants::kBuffers)
      .save(module.string());
  write_example_inputs(options.example_inputs, inputs);
  const auto dir = cache_directory() / "aoti";
  fs::create_directories(dir);
  const auto package = dir / (package_key(module, inputs) + ".pt2");
  cached = cached_artifact_is_current(package);
  if (cached) return package;
  const auto partial = scratch / "model.pt2";
  const auto result =
      run_command({python_interpreter(), build_config::kAotInductorExporter, "--module",
                   module.string(), "--inputs", inputs.string(), "--output", partial.string()});
  // The exporter exits 3 where the model is beyond torch.export (its docstring).
  if (result.exit_code == 3) throw UnsupportedModel(export_verdict(result));
  if (result.exit_code != 0) throw std::runtime_error(export_verdict(result));
  write_dependency_manifest(package, {});  // the key covers every input
  replace_file(partial, package);
  return package;
}

std::unique_ptr<CompiledModel> compile_package(Model& model, const CompileOptions& options) {
  tensor_inputs(options.example_inputs);  // unsupported before any work
  bool cached = false;
  const auto package = compiled_package(model, options, cached);
  // The loader unpacks the package into a directory of its own.
  auto compiled =
      std::make_unique<AotInductorModel>(package, model.forward(options.example_inputs));
  compiled->set_counter("package_cached", cached ? 1 : 0);
  return compiled;
}

#endif

class AotInductorBackend final : public Backend {
 public:
  std::string name() const override { return "aot_inductor"; }
  std::string description() const override {
    return "torch.export + AOTInductor package (freezing), run from C++; PyTorch 2.x build only";
  }
  bool traces_model() const override { return true; }
  bool supports_amp() const override { return false; }  // the package's kernels are fixed

  std::unique_ptr<CompiledModel> compile(Model& model, const CompileOptions& options) override {
#if TORCH_VERSION_MAJOR >= 2
    return compile_package(model, options);
#else
    (void)model;
    (void)options;
    throw UnsupportedModel("aot_inductor needs LibTorch 2.x (this build has " TORCH_VERSION
                           "): build with `make build-torch2`");
#endif
  }
};

}  // namespace

std::unique_ptr<Backend> make_aot_inductor_backend() {
  return std::make_unique<AotInductorBackend>();
}

}  // namespace tracebench
