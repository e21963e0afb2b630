// --weights: loading a state dict in torch.save's format, and the one-line
// errors for files that do not fit.

#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tracebench/error.h"
#include "zoo/squeezenet.h"
#include "zoo/weights.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

namespace fs = std::filesystem;

std::string scratch_file(const std::string& tag) {
  return (fs::temp_directory_path() /
          ("tracebench_weights_" + tag + "_" + std::to_string(::getpid()) + ".pt"))
      .string();
}

c10::impl::GenericDict state_dict_of(torch::nn::Module& module) {
  c10::impl::GenericDict dict(c10::StringType::get(), c10::TensorType::get());
  for (const auto& p : module.named_parameters()) dict.insert(p.key(), p.value().detach().clone());
  for (const auto& b : module.named_buffers()) dict.insert(b.key(), b.value().clone());
  return dict;
}

// torch::pickle_save writes the zip format that Python's torch.save writes.
void save(const c10::IValue& value, const std::string& path) {
  const auto bytes = torch::pickle_save(value);
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string load_error(torch::nn::Module& module, const std::string& path) {
  try {
    load_state_dict(module, path);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "(no error)";
}

class ZooWeights : public ::testing::Test {
 protected:
  void TearDown() override { fs::remove(path_); }
  SqueezeNetImpl make(uint64_t seed) {
    torch::manual_seed(seed);
    return SqueezeNetImpl(SqueezeNetOptions("1_1"));
  }
  std::string path_ = scratch_file("case");
};

TEST_F(ZooWeights, LoadsEveryParameterAndBuffer) {
  auto source = make(1), target = make(2);
  save(state_dict_of(source), path_);
  load_state_dict(target, path_);
  const auto loaded = target.named_parameters();
  for (const auto& p : source.named_parameters()) {
    EXPECT_TRUE(torch::equal(p.value(), loaded[p.key()])) << p.key();
  }
  EXPECT_TRUE(target.features[0]->as<torch::nn::Conv2d>()->weight.requires_grad());
}

TEST_F(ZooWeights, NamesMissingUnexpectedAndMisshapedKeysInOneLine) {
  auto source = make(1), target = make(2);
  auto dict = state_dict_of(source);
  ASSERT_EQ(dict.erase("features.0.weight"), 1u);
  dict.insert("features.99.weight", torch::zeros({1}));
  dict.insert_or_assign("classifier.1.bias", torch::zeros({7}));
  save(dict, path_);
  const auto before = target.features[0]->as<torch::nn::Conv2d>()->bias.clone();
  const std::string message = load_error(target, path_);
  EXPECT_NE(message.find("missing keys: features.0.weight"), std::string::npos) << message;
  EXPECT_NE(message.find("unexpected keys: features.99.weight"), std::string::npos) << message;
  EXPECT_NE(message.find("mis-shaped keys: classifier.1.bias [7] vs model [1000]"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  // Nothing is copied when the file does not fit.
  EXPECT_TRUE(torch::equal(before, target.features[0]->as<torch::nn::Conv2d>()->bias));
}

TEST_F(ZooWeights, LongKeyListsAreShortened) {
  auto target = make(2);
  save(c10::impl::GenericDict(c10::StringType::get(), c10::TensorType::get()), path_);
  const std::string message = load_error(target, path_);
  EXPECT_NE(message.find("more)"), std::string::npos) << message;
}

TEST_F(ZooWeights, RejectsFilesThatAreNotStateDicts) {
  auto target = make(2);
  save(torch::zeros({3}), path_);
  EXPECT_NE(load_error(target, path_).find("not a state dict"), std::string::npos);
  std::ofstream(path_) << "not a torch file";
  EXPECT_NE(load_error(target, path_).find("cannot read"), std::string::npos);
  EXPECT_NE(load_error(target, path_ + ".absent").find("cannot open"), std::string::npos);
}

TEST_F(ZooWeights, ReachableThroughTheModelInterface) {
  torch::manual_seed(1);
  auto source = std::make_shared<SqueezeNetImpl>(SqueezeNetOptions("1_1"));
  save(state_dict_of(*source), path_);
  auto zoo_model = find_zoo_model("squeezenet1_1")->make(1);
  zoo_model->load_weights(path_);
  EXPECT_TRUE(torch::equal(zoo_model->parameters().front(), source->parameters().front()));

  // A user's module (no loader installed) says what works instead.
  NnModel<SqueezeNetImpl> user_model("Mine", source);
  try {
    user_model.load_weights(path_);
    FAIL() << "expected UsageError";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("built-in models only"), std::string::npos);
  }
}

}  // namespace
}  // namespace tracebench
