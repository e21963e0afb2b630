// --save-optimized: the module tracebench writes for a backend must load in
// python3-torch (torch.jit.load, plus the loader step the row names) and
// compute what tracebench timed, on models with convolutions and without.

#include <gtest/gtest.h>
#include <torch/script.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "artefacts/save_optimized.h"
#include "backends/registry.h"
#include "test_paths.h"
#include "util/python_interpreter.h"
#include "util/subprocess.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

namespace fs = std::filesystem;

struct SavedCase {
  std::string model;
  std::string backend;
  double tolerance;  // relative to the output's largest value
};

void PrintTo(const SavedCase& saved, std::ostream* out) {
  *out << saved.model << " " << saved.backend;
}

// torch::pickle_save writes the zip format that Python's torch.load reads.
void save_reference(const std::vector<c10::IValue>& inputs, const at::Tensor& output,
                    const std::string& path) {
  c10::List<at::Tensor> tensors;
  for (const auto& input : inputs) tensors.push_back(input.toTensor());
  const auto bytes = torch::pickle_save(c10::ivalue::Tuple::create({tensors, output}));
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

class SavedModule : public ::testing::TestWithParam<SavedCase> {
 protected:
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_ = fs::temp_directory_path() / ("tracebench_saved_" + std::to_string(::getpid()));
};

TEST_P(SavedModule, LoadsInPythonAndComputesWhatWasTimed) {
  const auto& param = GetParam();
  auto model = find_zoo_model(param.model)->make(2);
  model->set_training(false);
  torch::NoGradGuard no_grad;
  for (auto& tensor : model->tensors()) tensor.requires_grad_(false);
  const auto inputs = model->example_inputs();
  CompileOptions options;
  options.example_inputs = inputs;
  std::unique_ptr<CompiledModel> compiled;
  try {
    compiled = make_backend(param.backend)->compile(*model, options);
  } catch (const UnsupportedBuild& missing) {  // xnnpack where LibTorch has no XNNPACK (PyPI's)
    GTEST_SKIP() << missing.what();
  }
  const at::Tensor timed = compiled->run(inputs).toTensor();

  ResultRow row;
  row.backend = param.backend;
  fs::create_directories(dir_);
  const std::string module_path = saved_module_path(dir_.string(), param.model, param.backend);
  save_optimized_module(row, *compiled, module_path);
  ASSERT_TRUE(fs::exists(module_path)) << ::testing::PrintToString(row.warnings);
  const std::string reference_path = (dir_ / "reference.pt").string();
  save_reference(inputs, timed, reference_path);

  std::vector<std::string> command = {
      python_interpreter(), testing::source_path("tests/zoo/saved_module_reference.py").string(),
      module_path, reference_path, std::to_string(param.tolerance)};
  const auto loader_step = compiled->saveable_graph().loader_step;
  if (!loader_step.empty()) command.push_back(loader_step);
  CommandResult result;
  try {
    result = run_command(command);
  } catch (const std::exception& error) {
    GTEST_SKIP() << "cannot start " << python_interpreter() << " (" << error.what()
                 << "); install python3-torch";
  }
  if (result.exit_code == 3) GTEST_SKIP() << result.output;
  EXPECT_EQ(result.exit_code, 0) << result.output;
  // The row says exactly when the file needs the loader's step.
  const bool warned_frozen = std::find(row.warning_codes.begin(), row.warning_codes.end(),
                                       "saved_frozen") != row.warning_codes.end();
  EXPECT_EQ(warned_frozen, !loader_step.empty());
}

// small_convnet: convolutions (ofi's oneDNN step, XNNPACK's packed convs) and
// a linear head; LinearModel: no convolution, so ofi and int8_dynamic save
// the very graph they run.
INSTANTIATE_TEST_SUITE_P(Backends, SavedModule,
                         ::testing::Values(SavedCase{"small_convnet", "ts", 1e-5},
                                           SavedCase{"small_convnet", "ofi", 1e-4},
                                           SavedCase{"small_convnet", "xnnpack", 1e-5},
                                           SavedCase{"small_convnet", "int8_dynamic", 1e-4},
                                           SavedCase{"small_convnet", "ofi_bf16", 2e-2},
                                           SavedCase{"LinearModel", "ofi", 1e-5},
                                           SavedCase{"LinearModel", "int8_dynamic", 1e-5},
                                           SavedCase{"LinearModel", "xnnpack", 1e-5}),
                         [](const auto& info) {
                           return info.param.model + "_" + info.param.backend;
                         });

TEST(SavedModule, EagerHasNothingToSaveAndTheRowSaysSo) {
  auto model = find_zoo_model("LinearModel")->make(2);
  CompileOptions options;
  options.example_inputs = model->example_inputs();
  auto compiled = make_backend("eager")->compile(*model, options);
  ResultRow row;
  row.backend = "eager";
  const auto path = testing::process_temp_path("never_written.pt");
  save_optimized_module(row, *compiled, path.string());
  EXPECT_FALSE(fs::exists(path));
  ASSERT_EQ(row.warning_codes, std::vector<std::string>{"not_saved"});
  EXPECT_NE(row.warnings[0].find("pick a tracing backend"), std::string::npos) << row.warnings[0];
}

TEST(SavedModule, PathIsTheFileOrOnePerModelAndBackendInADirectory) {
  EXPECT_EQ(saved_module_path("out/m.pt", "resnet18", "ofi"), "out/m.pt");
  EXPECT_EQ(saved_module_path("out", "resnet18", "ofi"), "out/resnet18.ofi.pt");
  EXPECT_EQ(saved_module_path("out", "path:/a/b.py,class:M", "ofi"),
            "out/path__a_b.py_class_M.ofi.pt");
}

}  // namespace
}  // namespace tracebench
