// End-to-end: every built-in backend over the corpus of user models in
// tests/data/user_models/ (files written the way people write models: dict
// and NamedTuple outputs, keyword and bool inputs, RNNs, masks built in
// forward, sibling imports, scripted control flow, C++ models that create
// tensors). Each model runs through the real binary in --performance and
// --accuracy; every backend's row must have the status that
// tests/corpus/expected_rows.csv gives it on this build, and a row that does
// not pass must say why. A missing row fails the test.

#include <gtest/gtest.h>
#include <torch/version.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <utility>

#include "backends/registry.h"
#include "expected_rows.h"
#include "report/csv_reader.h"
#include "test_paths.h"
#include "util/python_interpreter.h"
#include "util/subprocess.h"
#include "util/text.h"

namespace tracebench {
namespace {

struct CorpusModel {
  std::string file;  // relative to tests/data/user_models
  std::string class_name;
};

// What ctest's listing shows for a case, instead of the struct's bytes.
void PrintTo(const CorpusModel& model, std::ostream* out) {
  *out << model.file << ":" << model.class_name;
}

// One per idiom; tests/data/user_models/README.md says what each exercises.
const std::vector<CorpusModel> kCorpus = {
    {"gpt/gpt_lm.py", "GPTLanguageModel"},
    {"lstm_tagger.py", "LSTMTagger"},
    {"gru_seq2seq.py", "GRUSeq2Seq"},
    {"lstm_language_model.py", "LSTMLanguageModel"},
    {"greedy_decoder.py", "GreedyDecoder"},
    {"sparse_gcn.py", "GCN"},
    {"road_graph.py", "RoadGraphForecaster"},
    {"calibration_observer.py", "CalibratingMLP"},
    {"custom_autograd_swish.py", "SwishConvNet"},
    {"transformer_seq2seq.py", "TransformerSeq2Seq"},
    {"unet.py", "TinyUNet"},
    {"se_mobile_block.py", "SEDepthwiseNet"},
    {"dict_output.py", "DictOutputModel"},
    {"namedtuple_output.py", "NamedTupleOutputModel"},
    {"list_output.py", "ListOutputModel"},
    {"keyword_inputs.py", "KeywordInputsModel"},
    {"padding_mask.py", "PaddingMaskEncoder"},
    {"causal_attention.py", "CausalSelfAttention"},
    {"einsum_attention.py", "EinsumAttention"},
    {"moe_routing.py", "MoERouting"},
    {"embedding_bag.py", "EmbeddingBagClassifier"},
    {"prints_in_init.py", "ChattyModel"},
    {"tv_shufflenet.py", "ShuffleNetV2Wrapper"},
    {"tv_mobilenet_v3.py", "MobileNetV3Wrapper"},
    {"tv_efficientnet.py", "EfficientNetWrapper"},
    {"tv_swin.py", "SwinWrapper"},
    {"tv_vit.py", "ViTWrapper"},
    {"tv_deeplab.py", "DeepLabWrapper"},
    {"tensor_factory.cpp", "TensorFactoryModel"},
    {"local_header_model.cpp", "LocalHeaderModel"},
    {"scripted_control_flow.pt", "ScriptedGate"},  // made by scripted_control_flow.py
};

std::filesystem::path model_path(const CorpusModel& model) {
  if (model.file == "scripted_control_flow.pt") {
    static const auto archive = [] {
      const auto path = testing::process_temp_path("scripted_control_flow.pt");
      const auto made = run_command(
          {python_interpreter(),
           testing::source_path("tests/data/user_models/scripted_control_flow.py").string(),
           path.string()});
      EXPECT_EQ(made.exit_code, 0) << made.output;
      return path;
    }();
    return archive;
  }
  return testing::source_path("tests/data/user_models/" + model.file);
}

class UserModelCorpus : public ::testing::TestWithParam<CorpusModel> {
 protected:
  std::string only() const {
    return "path:" + model_path(GetParam()).string() + ",class:" + GetParam().class_name;
  }
};

TEST_P(UserModelCorpus, EveryBackendMeasuresIt) {
  testing::expect_rows_as_in_the_table(GetParam().class_name, only(), "performance");
}

TEST_P(UserModelCorpus, EveryBackendComputesTheSameOutputs) {
  testing::expect_rows_as_in_the_table(GetParam().class_name, only(), "accuracy");
}

// The table names only corpus models and this build's backends, so that a
// line cannot outlive what it describes.
TEST(CorpusTable, NamesOnlyCorpusModelsAndThisBuildsBackends) {
  const auto backends = backend_names();
  for (const auto& [pair, row] : testing::expected_rows()) {
    const auto& [model, backend] = pair;
    const bool corpus_model =
        std::any_of(kCorpus.begin(), kCorpus.end(),
                    [&](const CorpusModel& entry) { return entry.class_name == model; });
    EXPECT_TRUE(corpus_model || model.rfind("hf:", 0) == 0 || model.rfind("timm:", 0) == 0)
        << model << ": not in the corpus";
    EXPECT_NE(std::find(backends.begin(), backends.end(), backend), backends.end())
        << backend << ": no such backend on build " << testing::this_build();
  }
}

std::string test_name(const ::testing::TestParamInfo<CorpusModel>& info) {
  return info.param.class_name;
}

// A scripted model that branches on its input: the tracing backends say they
// kept one path, and --accuracy --randomize-input catches the path they baked in.
TEST(UserModelControlFlow, TracedBranchIsWarnedAndCaught) {
  const std::string only =
      "--only=path:" + model_path({"scripted_control_flow.pt", "ScriptedGate"}).string() +
      ",class:ScriptedGate";
  const auto csv = testing::process_temp_path("control_flow.csv");
  const auto timed = run_command({testing::tracebench_binary(), "--performance",
                                  "--backend=eager,ts", only, "-n", "3", "--output", csv.string()});
  ASSERT_EQ(timed.exit_code, 0) << timed.output;
  std::ifstream in(csv);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto records = parse_csv(text);
  ASSERT_EQ(records.size(), 3u) << text;
  auto column = [&](const char* name) {
    return size_t(std::find(records[0].begin(), records[0].end(), name) - records[0].begin());
  };
  const size_t warnings = column("warnings"), backend = column("backend");
  ASSERT_LT(warnings, records[0].size()) << text;
  for (size_t i = 1; i < records.size(); ++i) {
    const bool traced = records[i][backend] == "ts";
    EXPECT_EQ(records[i][warnings].find("traced_control_flow") != std::string::npos, traced)
        << records[i][backend] << ": " << records[i][warnings];
  }

  const auto checked =
      run_command({testing::tracebench_binary(), "--accuracy", "--backend=eager,ts", only});
  EXPECT_TRUE(std::regex_search(checked.output, std::regex(R"(ScriptedGate +ts +pass)")))
      << checked.output;
  const auto randomized = run_command({testing::tracebench_binary(), "--accuracy",
                                       "--randomize-input", "--backend=eager,ts", only});
  EXPECT_TRUE(std::regex_search(randomized.output, std::regex(R"(ScriptedGate +eager +pass)")))
      << randomized.output;
  EXPECT_TRUE(
      std::regex_search(randomized.output, std::regex(R"(ScriptedGate +ts +fail_accuracy)")))
      << randomized.output;
}

INSTANTIATE_TEST_SUITE_P(Corpus, UserModelCorpus, ::testing::ValuesIn(kCorpus), test_name);

}  // namespace
}  // namespace tracebench
