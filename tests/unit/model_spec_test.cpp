#include "sources/model_spec.h"

#include <gtest/gtest.h>

#include "tracebench/error.h"
#include "util/build_config.h"

namespace tracebench {
namespace {

const std::filesystem::path kCwd = "/home/user/work";

TEST(ModelSpec, PlainNameIsABuiltInModel) {
  auto spec = parse_model_spec("resnet18", kCwd);
  EXPECT_FALSE(spec.from_path);
  EXPECT_EQ(spec.name, "resnet18");
}

TEST(ModelSpec, AbsolutePathAndClass) {
  auto spec =
      parse_model_spec("path:/pytorch/myscripts/model_collection.py,class:LinearModel", kCwd);
  EXPECT_TRUE(spec.from_path);
  EXPECT_EQ(spec.name, "LinearModel");
  EXPECT_EQ(spec.path, "/pytorch/myscripts/model_collection.py");
  EXPECT_EQ(spec.file_kind, ModelFileKind::kPython);
}

TEST(ModelSpec, KeysInAnyOrderAndRelativePathResolved) {
  auto spec = parse_model_spec("class:Net,path:models/../m.cpp", kCwd);
  EXPECT_EQ(spec.path, "/home/user/work/m.cpp");
  EXPECT_EQ(spec.file_kind, ModelFileKind::kCppSource);
  EXPECT_EQ(parse_model_spec("path:a.pt,class:X", kCwd).file_kind, ModelFileKind::kTorchScript);
}

TEST(ModelSpec, CommasInsideThePathStayInThePath) {
  auto spec = parse_model_spec("path:/data/runs,v2/a,b.cpp,class:Net", kCwd);
  EXPECT_EQ(spec.path, "/data/runs,v2/a,b.cpp");
  EXPECT_EQ(spec.name, "Net");
  EXPECT_EQ(parse_model_spec("class:Net,path:/x,y.pt", kCwd).path, "/x,y.pt");
}

TEST(ModelSpec, HubNamesAreClassesOfTheHubModelsFile) {
  for (const std::string text : {"hf:bert", "timm:resnet18?num_classes=10"}) {
    auto spec = parse_model_spec(text, kCwd);
    EXPECT_TRUE(spec.from_path);
    EXPECT_EQ(spec.name, text);
    EXPECT_EQ(spec.path, build_config::kHubModels);
    EXPECT_EQ(spec.file_kind, ModelFileKind::kPython);
    EXPECT_EQ(model_spec_text(spec), text);  // what isolated children get back
  }
  EXPECT_FALSE(is_hub_model_spec("path:hf.py,class:hf"));
}

void expect_usage_error(const std::string& text, const std::string& fragment) {
  try {
    parse_model_spec(text, kCwd);
    FAIL() << "no error for " << text;
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
        << "message was: " << error.what();
  }
}

TEST(ModelSpec, MalformedSpecsNameTheFix) {
  expect_usage_error("path:/m.py", "add ,class:NAME");
  expect_usage_error("path:,class:A", "no file");
  expect_usage_error("path:/m.py,clas:A", "unknown key 'clas'");
  expect_usage_error("path:/m.py,class:A,class:B", "given twice");
  expect_usage_error("path:/m.py,classA", "add ,class:NAME");  // ",classA" is part of the path
  expect_usage_error("m.py,path:/m.py,class:A", "not key:value");
  expect_usage_error("path:/m.onnx,class:A", ".cpp, .pt or .py");
  expect_usage_error("", "--only is empty");
  expect_usage_error("timm:", "write e.g. hf:bert or timm:resnet18");
}

}  // namespace
}  // namespace tracebench
