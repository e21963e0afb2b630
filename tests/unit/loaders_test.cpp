// Each kind of model file, loaded for real (the compiler, Debian's python3 with
// torch, the TorchScript loader), and each way it can go wrong.

#include <gtest/gtest.h>
#include <torch/version.h>

#include <cstdlib>
#include <fstream>

#include "sources/cpp_loader.h"
#include "sources/load_model.h"
#include "sources/python_loader.h"
#include "test_paths.h"
#include "tracebench/error.h"
#include "usage_error_helpers.h"
#include "util/python_interpreter.h"
#include "util/subprocess.h"

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
  auto message =
      usage_error_of([] { load(source_path("tests/data/broken_model.cpp"), "BrokenModel"); });
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
  EXPECT_EQ(loaded.model->forward(loaded.inputs).toTensor().sizes(), (std::vector<int64_t>{2, 10}));
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
  EXPECT_CONTAINS(
      usage_error_of([] { load(source_path("tests/data/odd_models.py"), "RaisesInConstructor"); }),
      "RuntimeError: no weights here; fix its constructor");
  EXPECT_CONTAINS(
      usage_error_of([] { load(source_path("tests/data/odd_models.py"), "ExampleInputsRaise"); }),
      "ValueError: no data; fix it or pass --input-shapes");
}

// A trace TorchScript cannot save says what in the model and the ways out,
// and leaves nothing behind for the cache to take for an archive. PyTorch 2.x
// tries torch.export first, which cannot follow a Python branch on data.
TEST(PythonLoader, AnUnsavableTraceNamesTheConstructAndLeavesNoArchive) {
  const auto cache = fresh_temp_directory("unsavable-cache");
  const char* shared = std::getenv("TRACEBENCH_CACHE_DIR");
  const std::string shared_cache = shared ? shared : "";
  setenv("TRACEBENCH_CACHE_DIR", cache.c_str(), 1);
  const auto message = usage_error_of(
      [] { load(source_path("tests/data/odd_models.py"), "DataDependentAutogradFunction"); });
  setenv("TRACEBENCH_CACHE_DIR", shared_cache.c_str(), 1);
  EXPECT_CONTAINS(message, "forward calls the Python function _SignGate");
  EXPECT_CONTAINS(message, "pass the .pt file");
#if TORCH_VERSION_MAJOR >= 2
  EXPECT_CONTAINS(message, "torch.export failed too");
#else
  EXPECT_CONTAINS(message, "make build-torch2");
#endif
  EXPECT_EQ(message.find("<module>"), std::string::npos) << message;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(cache)) {
    const auto name = entry.path().filename().string();
    EXPECT_FALSE(name.find(".pt") != std::string::npos && entry.is_regular_file())
        << "left behind: " << entry.path();
  }
}

#if TORCH_VERSION_MAJOR >= 2
// On 2.x, a torch.autograd.Function that TorchScript cannot save reaches
// LibTorch through torch.export, computing what the Python model computes
// (_Doubled: twice its Linear).
TEST(PythonLoader, TorchExportTakesAnAutogradFunction) {
  auto loaded = load(source_path("tests/data/odd_models.py"), "CustomAutogradFunction");
  const auto tensors = loaded.model->tensors();
  ASSERT_EQ(tensors.size(), 2u);
  const auto x = loaded.inputs.at(0).toTensor();
  const auto expected = 2 * torch::linear(x, tensors[0], tensors[1]);
  EXPECT_TRUE(torch::allclose(loaded.model->forward(loaded.inputs).toTensor(), expected));
}
#endif

TEST(PythonLoader, InputShapesReplaceMissingExampleInputs) {
  auto loaded = load(source_path("tests/data/odd_models.py"), "NoExampleInputs", "5x4");
  EXPECT_EQ(loaded.batch_size, 5);
  EXPECT_EQ(loaded.model->forward(loaded.inputs).toTensor().sizes(), (std::vector<int64_t>{5, 3}));
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

// A model file that imports its sibling (as `python3 user.py` would find it),
// and a cache that notices when that sibling changes.
TEST(PythonLoader, SiblingImportAndAChangedSiblingReexports) {
  const auto dir = fresh_temp_directory("sibling");
  auto write_core = [&](int width) {
    write_text(dir / "core.py",
               "from torch import nn\n"
               "class Core(nn.Module):\n"
               "    def __init__(self):\n"
               "        super().__init__()\n"
               "        self.linear = nn.Linear(4, " +
                   std::to_string(width) +
                   ")\n"
                   "    def forward(self, x):\n"
                   "        return self.linear(x)\n");
  };
  write_core(8);
  write_text(dir / "user.py",
             "import torch\n"
             "from core import Core\n"
             "class User(Core):\n"
             "    def get_example_inputs(self):\n"
             "        return (torch.randn(2, 4),)\n");
  const auto file = (dir / "user.py").string();
  auto first = load(file, "User");
  EXPECT_EQ(first.model->forward(first.inputs).toTensor().size(1), 8);
  write_core(3);
  auto changed = load(file, "User");
  EXPECT_EQ(changed.model->forward(changed.inputs).toTensor().size(1), 3);
}

// HuggingFace-style: keyword inputs (int64 ids, a mask) and a dict output,
// flattened in order with each tensor's name kept for messages.
TEST(PythonLoader, KeywordInputsAndDictOutputsKeepTheirNames) {
  auto dict = load(source_path("tests/data/user_models/dict_output.py"), "DictOutputModel");
  EXPECT_EQ(dict.output_names, (std::vector<std::string>{"logits", "hidden"}));
  auto outputs = dict.model->forward(dict.inputs);
  ASSERT_TRUE(outputs.isTuple());
  EXPECT_EQ(outputs.toTupleRef().elements().size(), 2u);

  auto keywords =
      load(source_path("tests/data/user_models/keyword_inputs.py"), "KeywordInputsModel");
  ASSERT_EQ(keywords.inputs.size(), 3u);
  for (const auto& input : keywords.inputs)
    EXPECT_EQ(input.toTensor().scalar_type(), torch::kInt64);
  EXPECT_TRUE(keywords.model->forward(keywords.inputs).isTensor());
}

// A seq2seq model returning its settings beside its tensors (ints, a string,
// None): the tensors are its outputs, and the rest is named, not refused.
TEST(PythonLoader, NonTensorOutputsAreLeftOutAndNamed) {
  auto loaded = load(source_path("tests/data/user_models/greedy_decoder.py"), "GreedyDecoder");
  EXPECT_EQ(loaded.output_names, (std::vector<std::string>{"tokens", "scores"}));
  EXPECT_EQ(loaded.dropped_outputs, (std::vector<std::string>{"steps", "strategy", "attention"}));
  auto outputs = loaded.model->forward(loaded.inputs);
  ASSERT_TRUE(outputs.isTuple());
  ASSERT_EQ(outputs.toTupleRef().elements().size(), 2u);
  EXPECT_EQ(outputs.toTupleRef().elements()[0].toTensor().sizes(), (std::vector<int64_t>{3, 6}));
}

// A graph network's adjacency arrives as a sparse COO tensor: LibTorch's
// unpickler knows no sparse layout, so the exporter encodes it and the loader
// makes it sparse again.
TEST(PythonLoader, SparseInputsLoadAsSparseTensors) {
  auto loaded = load(source_path("tests/data/user_models/sparse_gcn.py"), "GCN");
  ASSERT_EQ(loaded.inputs.size(), 2u);
  const auto adjacency = loaded.inputs[1].toTensor();
  EXPECT_TRUE(adjacency.is_sparse());
  EXPECT_EQ(adjacency.sizes(), (std::vector<int64_t>{50, 50}));
  EXPECT_EQ(loaded.batch_size, 50);
  EXPECT_EQ(loaded.model->forward(loaded.inputs).toTensor().sizes(), (std::vector<int64_t>{50, 4}));
}

// A .py model's parameters and random example inputs come from --seed, so two
// machines (or two fresh caches) export the same model, and another seed
// another one.
TEST(PythonLoader, TheSeedFixesParametersAndExampleInputs) {
  auto load_seeded = [](uint64_t seed, const std::filesystem::path& cache) {
    setenv("TRACEBENCH_CACHE_DIR", cache.c_str(), 1);
    LoadOptions options;
    options.seed = seed;
    return load_model(
        parse_model_spec(
            "path:" + source_path("tests/data/user_models/greedy_decoder.py").string() +
                ",class:GreedyDecoder",
            std::filesystem::current_path()),
        options);
  };
  const char* shared_cache = std::getenv("TRACEBENCH_CACHE_DIR");
  const std::string restore = shared_cache ? shared_cache : "";
  auto first = load_seeded(7, fresh_temp_directory("seed-a"));
  auto again = load_seeded(7, fresh_temp_directory("seed-b"));
  auto other = load_seeded(8, fresh_temp_directory("seed-c"));
  if (restore.empty()) {
    unsetenv("TRACEBENCH_CACHE_DIR");
  } else {
    setenv("TRACEBENCH_CACHE_DIR", restore.c_str(), 1);
  }
  const auto weight = [](LoadedModel& loaded) { return loaded.model->parameters().front(); };
  EXPECT_TRUE(torch::equal(weight(first), weight(again)));
  EXPECT_TRUE(torch::equal(first.inputs[0].toTensor(), again.inputs[0].toTensor()));
  EXPECT_FALSE(torch::equal(weight(first), weight(other)));
}

// A .cpp model's cache key covers the local headers it includes.
TEST(CppLoader, AChangedLocalHeaderRecompiles) {
  const auto dir = fresh_temp_directory("header");
  write_text(dir / "width.h", "constexpr int64_t kWidth = 4;\n");
  write_text(dir / "model.cpp",
             "#include <tracebench/model.h>\n"
             "#include \"width.h\"\n"
             "struct Widened : torch::nn::Module {\n"
             "  torch::Tensor forward(torch::Tensor x) { return x.repeat({1, kWidth}); }\n"
             "  std::vector<torch::Tensor> get_example_inputs() { return {torch::ones({1, 1})}; }\n"
             "};\n"
             "TRACEBENCH_REGISTER_MODEL(Widened)\n");
  auto read_bytes = [](const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const auto library = compile_model_source(dir / "model.cpp");
  const auto first = read_bytes(library);
  EXPECT_EQ(read_bytes(compile_model_source(dir / "model.cpp")), first);  // cached
  write_text(dir / "width.h", "constexpr int64_t kWidth = 2000000;\n");
  EXPECT_NE(read_bytes(compile_model_source(dir / "model.cpp")), first);
}

TEST(TorchScriptLoader, ArchiveExportingGetExampleInputs) {
  const auto dir = fresh_temp_directory("scripted");
  const auto archive = dir / "scripted.pt";
  auto made =
      run_command({python_interpreter(),
                   source_path("tests/data/make_scripted_archive.py").string(), archive.string()});
  ASSERT_EQ(made.exit_code, 0) << made.output;
  auto loaded = load(archive.string(), "ScriptedNet");
  ASSERT_EQ(loaded.inputs.size(), 1u);
  EXPECT_TRUE(torch::equal(loaded.inputs[0].toTensor(), torch::ones({3, 6})));
  EXPECT_EQ(loaded.model->forward(loaded.inputs).toTensor().sizes(), (std::vector<int64_t>{3, 2}));
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
