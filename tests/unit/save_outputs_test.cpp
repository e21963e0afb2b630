// --save-outputs: what is written, and that LibTorch reads it back as saved
// (the e2e test, tests/e2e/inputs_test.cpp, reads it with Python's torch.load).

#include <gtest/gtest.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "artefacts/save_outputs.h"
#include "test_paths.h"

namespace tracebench {
namespace {

TEST(SaveOutputs, NamedContainersBecomeDictsByName) {
  const auto a = torch::ones({2});
  const auto b = torch::zeros({3});
  const auto tuple = c10::ivalue::Tuple::create({a, b});

  const auto named = outputs_to_save(tuple, {"logits", "hidden[0]"});
  ASSERT_TRUE(named.isGenericDict());
  const auto dict = named.toGenericDict();
  ASSERT_EQ(dict.size(), 2u);
  EXPECT_TRUE(dict.at("logits").toTensor().equal(a));
  EXPECT_TRUE(dict.at("hidden[0]").toTensor().equal(b));

  // Names that do not cover every tensor, or that repeat, keep the structure.
  EXPECT_TRUE(outputs_to_save(tuple, {"logits"}).isTuple());
  EXPECT_TRUE(outputs_to_save(tuple, {"x", "x"}).isTuple());
  EXPECT_TRUE(outputs_to_save(tuple, {}).isTuple());
  // A bare tensor stays a tensor, whatever it is called.
  EXPECT_TRUE(outputs_to_save(a, {"output"}).isTensor());
}

TEST(SaveOutputs, TheFileHoldsWhatWasSaved) {
  const auto path = testing::process_temp_path("outputs.pt");
  const auto output =
      c10::ivalue::Tuple::create({torch::arange(6.0).view({2, 3}), torch::ones({1})});
  save_outputs(output, {"scores", "total"}, path.string());

  std::ifstream file(path, std::ios::binary);
  const std::vector<char> bytes{std::istreambuf_iterator<char>(file), {}};
  const auto read = torch::jit::pickle_load(bytes).toGenericDict();
  EXPECT_TRUE(read.at("scores").toTensor().equal(torch::arange(6.0).view({2, 3})));
  EXPECT_TRUE(read.at("total").toTensor().equal(torch::ones({1})));

  EXPECT_THROW(save_outputs(output, {}, "/proc/no-such/dir/outputs.pt"), std::runtime_error);
  EXPECT_EQ(saved_outputs_path("out", "path:/a/b.py,class:M", "ofi"),
            "out/path__a_b.py_class_M.ofi.pt");
}

}  // namespace
}  // namespace tracebench
