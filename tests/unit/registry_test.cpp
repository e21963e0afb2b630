#include "backends/registry.h"

#include <gtest/gtest.h>

#include "tracebench/error.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

TEST(BackendRegistry, BuiltInBackendsAreRegistered) {
  const auto names = backend_names();
  for (const char* expected : {"eager", "ts", "ofi"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
    EXPECT_EQ(make_backend(expected)->name(), expected);
    EXPECT_FALSE(make_backend(expected)->description().empty());
  }
}

// A built-in is one file: its registration line names it, and every instance
// make_backend makes answers to that name.
TEST(BackendRegistry, EveryBackendAnswersToItsRegisteredName) {
  for (const auto& name : backend_names()) EXPECT_EQ(make_backend(name)->name(), name);
}

TEST(BackendRegistry, UnknownBackendListsTheKnownOnes) {
  try {
    make_backend("tensorrt");
    FAIL();
  } catch (const UsageError& error) {
    // The built-ins by name, so that the list reads the same on every build.
    EXPECT_NE(
        std::string(error.what()).find("choose from aot_inductor, aot_inductor_bf16, auto, eager"),
        std::string::npos)
        << error.what();
  }
}

TEST(ZooRegistry, ModelsAreSortedAndFindable) {
  const auto& models = zoo_models();
  ASSERT_GE(models.size(), 3u);
  for (size_t i = 1; i < models.size(); ++i) EXPECT_LT(models[i - 1].name, models[i].name);
  for (const char* name : {"LinearModel", "small_convnet", "resnet18"}) {
    ASSERT_NE(find_zoo_model(name), nullptr) << name;
    EXPECT_GT(find_zoo_model(name)->default_batch_size, 0);
  }
  EXPECT_EQ(find_zoo_model("no_such_model"), nullptr);
}

TEST(ZooRegistry, BatchSizeShapesTheExampleInputs) {
  auto model = find_zoo_model("small_convnet")->make(3);
  auto inputs = model->example_inputs();
  ASSERT_EQ(inputs.size(), 1u);
  EXPECT_EQ(inputs[0].toTensor().sizes(), (std::vector<int64_t>{3, 3, 64, 64}));
  // Seeded: the same inputs every time.
  EXPECT_TRUE(torch::equal(inputs[0].toTensor(), model->example_inputs()[0].toTensor()));
}

TEST(ZooRegistry, Resnet18HasTorchvisionParameterCount) {
  // torchvision.models.resnet18(): 11,689,512 parameters.
  auto model = find_zoo_model("resnet18")->make(1);
  int64_t count = 0;
  for (const auto& p : model->parameters()) count += p.numel();
  EXPECT_EQ(count, 11689512);
}

}  // namespace
}  // namespace tracebench
