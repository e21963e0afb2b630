// Each kind of model file, loaded for real (the compiler, Debian's python3 with
// torch, the TorchScript loader), and each way it can go wrong.

#include <gtest/gtest.h>

#include <fstream>

#include "sources/load_model.h"
#include "sources/python_loader.h"
#include "sources/subprocess.h"
#include "test_paths.h"
#include "usage_error_helpers.h"
#include "tracebench/error.h"

namespace tracebench {
namespace {

using testing::fresh_temp_directory;
using testing::source_path;
using testing::usage_error_of;

LoadedModel load(const std::string& file, const std::string& class_name,
                 const std::string& shapes = "") {
  LoadOptions options;
  if (!shapes.empty()) options.input_shapes = parse_input_shapes(shapes);
  return load_model(
      parse_model_spec("path:" + file + ",class:" + class_name, std::filesystem::current_path()),
      options);
}


TEST(CppLoader, SeedLinearModelFromSource) {
  auto loaded = load(source_path("examples/model_collection.cpp"), "LinearModel");
  EXPECT_EQ(loaded.name, "LinearModel");
  ASSERT_EQ(loaded.inputs.size(), 1u);
  EXPECT_EQ(loaded.batch_size, 2);
  auto out = loaded.model->forward(loaded.inputs).toTensor();
  EXPECT_EQ(out.sizes(), (std::vector<int64_t>{2, 10}));
  EXPECT_EQ(loaded.model->parameters().size(), 4u);  // two weights, two biases
}

TEST(CppLoader, SecondClassWithTwoInputsAndTupleOutput) {
  auto loaded = load(source_path("examples/model_collection.cpp"), "TwoHeadModel");
  ASSERT_EQ(loaded.inputs.size(), 2u);
  auto out = loaded.model->forward(loaded.inputs);
  ASSERT_TRUE(out.isTuple());
  EXPECT_EQ(out.toTupleRef().elements().size(), 2u);
}

TEST(CppLoader, UnregisteredClassListsTheRegisteredOnes) {
  auto message = usage_error_of([] { load(source_path("examples/model_collection.cpp"), "Nope"); });
  EXPECT_CONTAINS(message, "registered: LinearModel, TwoHeadModel");
  EXPECT_CONTAINS(message, "TRACEBENCH_REGISTER_MODEL(Nope)");
}

TEST(CppLoader, CompileErrorShowsTheCompilersFirstErrors) {
  auto message = usage_error_of([] { load(source_path("tests/data/broken_model.cpp"), "BrokenModel"); });
  EXPECT_CONTAINS(message, "does not compile");
  EXPECT_CONTAINS(message, "undefined_variable");
}

TEST(Loaders, MissingFileSaysSo) {
  auto message = usage_error_of([] { load("/nonexistent/model.cpp", "A"); });
  EXPECT_CONTAINS(message, "does not exist");
}

TEST(PythonLoader, SeedModelCollectionFile) {
  auto loaded = load(source_path("examples/model_collection.py"), "LinearModel");
  ASSERT_EQ(loaded.inputs.size(), 1u);
  EXPECT_EQ(loaded.inputs[0].toTensor().sizes(), (std::vector<int64_t>{2, 10}));
  EXPECT_EQ(loaded.model->forward(loaded.inputs).toTensor().sizes(),
            (std::vector<int64_t>{2, 10}));
  EXPECT_EQ(loaded.model->parameters().size(), 4u);
}

TEST(PythonLoader, EachFailureNamesTheFix) {
  EXPECT_CONTAINS(usage_error_of([] { load(source_path("tests/data/syntax_error.py"), "Broken"); }),
                  "syntax error");
  EXPECT_CONTAINS(
      usage_error_of([] { load(source_path("tests/data/raises_on_import.py"), "Anything"); }),
      "this module refuses to load");
  EXPECT_CONTAINS(
      usage_error_of([] { load(source_path("tests/data/odd_models.py"), "NeedsArguments"); }),
      "give every constructor argument a default");
  EXPECT_CONTAINS(
      usage_error_of([] { load(source_path("tests/data/odd_models.py"), "NoExampleInputs"); }),
      "pass --input-shapes");
  EXPECT_CONTAINS(
      usage_error_of([] { load(source_path("tests/data/odd_models.py"), "ReturnsNonTensors"); }),
      "must return tensors");
  EXPECT_CONTAINS(usage_error_of([] { load(source_path("tests/data/odd_models.py"), "Missing"); }),
                  "NoExampleInputs");
  EXPECT_CONTAINS(usage_error_of([] {
                    load(source_path("tests/data/odd_models.py"), "RaisesInConstructor");
                  }),
                  "RuntimeError: no weights here; fix its constructor");
  EXPECT_CONTAINS(usage_error_of([] {
                    load(source_path("tests/data/odd_models.py"), "ExampleInputsRaise");
                  }),
                  "ValueError: no data; fix it or pass --input-shapes");
}

TEST(PythonLoader, InputShapesReplaceMissingExampleInputs) {
  auto loaded = load(source_path("tests/data/odd_models.py"), "NoExampleInputs", "5x4");
  EXPECT_EQ(loaded.batch_size, 5);
  EXPECT_EQ(loaded.model->forward(loaded.inputs).toTensor().sizes(),
            (std::vector<int64_t>{5, 3}));
}

TEST(TorchScriptLoader, ArchiveExportingGetExampleInputs) {
  const auto dir = fresh_temp_directory("scripted");
  const auto archive = dir / "scripted.pt";
  auto made = run_command({python_interpreter(),
                           source_path("tests/data/make_scripted_archive.py").string(),
                           archive.string()});
  ASSERT_EQ(made.exit_code, 0) << made.output;
  auto loaded = load(archive.string(), "ScriptedNet");
  ASSERT_EQ(loaded.inputs.size(), 1u);
  EXPECT_TRUE(torch::equal(loaded.inputs[0].toTensor(), torch::ones({3, 6})));
  EXPECT_EQ(loaded.model->forward(loaded.inputs).toTensor().sizes(),
            (std::vector<int64_t>{3, 2}));
  EXPECT_CONTAINS(usage_error_of([&] { load(archive.string(), "OtherNet"); }),
                  "holds class ScriptedNet, not OtherNet; use class:ScriptedNet");
}

TEST(TorchScriptLoader, EmptyAndGarbledArchives) {
  const auto dir = fresh_temp_directory("garbled");
  std::ofstream(dir / "empty.pt").close();
  std::ofstream(dir / "garbled.pt") << "this is not a zip archive at all";
  EXPECT_CONTAINS(usage_error_of([&] { load((dir / "empty.pt").string(), "A"); }), "is empty");
  EXPECT_CONTAINS(usage_error_of([&] { load((dir / "garbled.pt").string(), "A"); }),
                  "as a TorchScript archive");
}

TEST(InputShapes, ParsesAndRejects) {
  EXPECT_EQ(parse_input_shapes("1x3x224x224,2x10"),
            (std::vector<std::vector<int64_t>>{{1, 3, 224, 224}, {2, 10}}));
  EXPECT_CONTAINS(usage_error_of([] { parse_input_shapes("1x0"); }), "bad input shape");
  EXPECT_CONTAINS(usage_error_of([] { parse_input_shapes("1xa"); }), "bad input shape");
}

}  // namespace
}  // namespace tracebench
