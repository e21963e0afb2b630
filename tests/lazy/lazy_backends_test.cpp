// The lazy-tensor-core backends against eager, on every zoo model and on a
// TorchScript archive. Tolerance: float32, rtol 1e-3 and atol 1e-4 (the LTC
// computation runs the same ATen kernels, but the TorchScript graph executor
// behind it may fuse or reorder them).

#include <gtest/gtest.h>
#include <torch/csrc/lazy/core/lazy_graph_executor.h>
#include <torch/script.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "backends/lazy/lazy_capture.h"
#include "backends/lazy/lazy_common.h"
#include "backends/lazy/lazy_frozen.h"
#include "backends/registry.h"
#include "compiled_counters.h"
#include "lazy_tolerance.h"
#include "sources/script_loader.h"
#include "zoo/zoo.h"

namespace tracebench {
namespace {

using testing::counter;
using testing::flat;
using testing::kLazyAtol;
using testing::kLazyRtol;

void expect_close(const c10::IValue& actual, const c10::IValue& expected, const std::string& what) {
  auto a = flat(actual);
  auto e = flat(expected);
  ASSERT_EQ(a.size(), e.size()) << what;
  ASSERT_FALSE(e.empty()) << what;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].device().type(), c10::kCPU) << what << " output " << i;
    ASSERT_EQ(a[i].sizes(), e[i].sizes()) << what << " output " << i;
    EXPECT_TRUE(torch::allclose(a[i], e[i], kLazyRtol, kLazyAtol))
        << what << " output " << i << " max abs diff " << (a[i] - e[i]).abs().max().item<double>();
  }
}

/// Inference setup as the performance runner does it.
void prepare(Model& model) {
  model.set_training(false);
  for (auto& tensor : model.tensors()) tensor.requires_grad_(false);
}

std::vector<c10::IValue> fresh_like(const std::vector<c10::IValue>& inputs, int64_t batch = -1) {
  std::vector<c10::IValue> fresh;
  for (const auto& input : inputs) {
    if (input.isTensor() && input.toTensor().is_floating_point()) {
      auto sizes = input.toTensor().sizes().vec();
      if (batch > 0) sizes[0] = batch;
      fresh.emplace_back(torch::randn(sizes));
    } else {
      fresh.push_back(input);
    }
  }
  return fresh;
}

std::unique_ptr<CompiledModel> compile(const std::string& backend, Model& model,
                                       const std::vector<c10::IValue>& inputs) {
  CompileOptions options;
  options.example_inputs = inputs;
  return make_backend(backend)->compile(model, options);
}

class ZooLazyTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    torch::manual_seed(0);
    model_ = find_zoo_model(GetParam())->make(/*batch_size=*/1);
    prepare(*model_);
    inputs_ = model_->example_inputs();
  }
  torch::NoGradGuard no_grad_;
  std::unique_ptr<Model> model_;
  std::vector<c10::IValue> inputs_;
};

TEST_P(ZooLazyTest, TraceEverytimeMatchesEagerAndHitsTheCache) {
  const auto eager = model_->forward(inputs_);
  auto compiled = compile("lazy_trace_everytime", *model_, inputs_);
  expect_close(compiled->run(inputs_), eager, GetParam() + " first call");
  // After warm-up every call finds its graph in LTC's cache: no new compiles.
  const double uncached = counter(*compiled, "ltc_uncached_compiles");
  const double cached = counter(*compiled, "ltc_cached_compiles");
  EXPECT_LE(uncached, 1);
  for (int call = 0; call < 3; ++call) {
    auto inputs = fresh_like(inputs_);
    expect_close(compiled->run(inputs), model_->forward(inputs), GetParam() + " fresh inputs");
  }
  EXPECT_EQ(counter(*compiled, "ltc_uncached_compiles"), uncached);
  EXPECT_EQ(counter(*compiled, "ltc_cached_compiles"), cached + 3);
  EXPECT_EQ(counter(*compiled, "eager_fallbacks_per_call"), 0);
}

// An op LTC 1.13 cannot lower (EmbeddingBag) runs eagerly inside the lazy
// trace, as LTC does it, and the row counts it.
TEST(LazyTraceEverytime, CountsEagerFallbacks) {
  struct Bag : torch::nn::Module {
    Bag() {
      bag = register_module(
          "bag", torch::nn::EmbeddingBag(torch::nn::EmbeddingBagOptions(10, 4).mode(torch::kMean)));
    }
    torch::Tensor forward(torch::Tensor text, torch::Tensor offsets) { return bag(text, offsets); }
    torch::nn::EmbeddingBag bag{nullptr};
  };
  torch::NoGradGuard no_grad;
  NnModel<Bag> model("Bag", std::make_shared<Bag>());
  for (auto& tensor : model.tensors()) tensor.requires_grad_(false);
  const std::vector<c10::IValue> inputs = {torch::tensor({1, 2, 3, 4}, torch::kLong),
                                           torch::tensor({0, 2}, torch::kLong)};
  auto compiled = compile("lazy_trace_everytime", model, inputs);
  expect_close(compiled->run(inputs), model.forward(inputs), "EmbeddingBag");
  EXPECT_GE(counter(*compiled, "eager_fallbacks_per_call"), 1);
}

/// `backend` (a lazy_trace_once flavour) against eager on the example inputs
/// and fresh ones: one LTC compile at compile time, replays after it.
void expect_trace_once_replays(const std::string& backend, Model& model,
                               const std::vector<c10::IValue>& inputs, const std::string& what) {
  // Start from an empty LTC computation cache so the one compile is visible.
  // The executor exists once the backend is up (2.x no longer makes it on demand).
  lazy::ensure_lazy_backend();
  torch::lazy::LazyGraphExecutor::Get()->GetComputationCache()->Clear();
  const auto before = lazy::CompileCounts::now();
  auto compiled = compile(backend, model, inputs);
  expect_close(compiled->run(inputs), model.forward(inputs), what + " example inputs");
  for (int call = 0; call < 4; ++call) {
    auto fresh = fresh_like(inputs);
    expect_close(compiled->run(fresh), model.forward(fresh),
                 what + " fresh inputs, call " + std::to_string(call));
  }
  const auto delta = lazy::CompileCounts::now() - before;
  EXPECT_EQ(delta.uncached, 1);  // the trace at compile time, nothing after
  EXPECT_EQ(delta.cached, 0);
  EXPECT_EQ(counter(*compiled, "ltc_uncached_compiles"), 1);
  EXPECT_EQ(counter(*compiled, "traces"), 1);
  EXPECT_EQ(counter(*compiled, "retraces"), 0);
  EXPECT_EQ(counter(*compiled, "replays"), 5);
}

TEST_P(ZooLazyTest, TraceOnceMatchesEagerOnFreshInputsWithOneCompile) {
  expect_trace_once_replays("lazy_trace_once", *model_, inputs_, GetParam());
}

// The unfrozen flavour replays LTC's own computation: a convolutional and a
// transformer model cover its two kinds of graphs.
TEST(LazyTraceOnceUnfrozen, MatchesEagerOnFreshInputsWithOneCompile) {
  torch::NoGradGuard no_grad;
  for (const std::string name : {"resnet18", "timm_vision_transformer"}) {
    torch::manual_seed(0);
    auto model = find_zoo_model(name)->make(/*batch_size=*/1);
    prepare(*model);
    expect_trace_once_replays("lazy_trace_once_unfrozen", *model, model->example_inputs(), name);
  }
}

// Freezing resnet18's captured computation: the parameters become constants
// (only the image stays an input), every batch norm folds into its
// convolution, the convolutions run on oneDNN, and neither the classifier's
// addmm nor the pooling's indices remain; the result still equals eager.
TEST(LazyFrozen, FoldsResNetBatchNormsAndKeepsOnlyTheInput) {
  torch::NoGradGuard no_grad;
  lazy::ensure_lazy_backend();
  torch::manual_seed(0);
  auto model = find_zoo_model("resnet18")->make(/*batch_size=*/1);
  prepare(*model);
  const auto inputs = model->example_inputs();
  lazy::LazyProgram program(lazy::trace_with_parameter_inputs(*model, inputs));
  const auto lazy_inputs = lazy::to_lazy(inputs);
  lazy::DataIndex index{lazy::DataIndex::of(program.resident_lazy()),
                        lazy::DataIndex::of(lazy_inputs)};
  std::vector<at::Tensor> recorded = flat(program.record_lazy(lazy_inputs));
  lazy::CompileCounts compiles;
  const auto capture = lazy::capture(recorded, index, compiles);
  std::vector<lazy::BackendDataPtr> resident;
  for (const auto& tensor : program.resident_lazy()) {
    resident.push_back(torch::lazy::GetLtcTensor(tensor)->GetDataHandle());
  }

  lazy::FrozenComputation frozen(capture, resident);
  std::map<std::string, int> kinds;
  for (const auto* node : frozen.graph().nodes()) ++kinds[node->kind().toQualString()];
  EXPECT_EQ(frozen.graph().inputs().size(), 1u);
  EXPECT_EQ(kinds["aten::native_batch_norm"] + kinds["aten::batch_norm"], 0);
  EXPECT_EQ(kinds["aten::convolution"], 0);
  // resnet18's 20 convolutions (downsampling included), in oneDNN layout.
  EXPECT_EQ(kinds["prim::mkldnn_convolution"], 20) << frozen.graph();
  EXPECT_EQ(kinds["aten::max_pool2d_with_indices"], 0);
  EXPECT_EQ(kinds["aten::addmm"], 0);

  const auto results = frozen.run(inputs);
  ASSERT_EQ(results.size(), 1u);
  expect_close(lazy::cpu_tensor_of(capture.tensors[0], results, resident, inputs),
               model->forward(inputs), "frozen resnet18");
}

std::vector<std::string> zoo_names() {
  std::vector<std::string> names;
  for (const auto& entry : zoo_models()) names.push_back(entry.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Zoo, ZooLazyTest, ::testing::ValuesIn(zoo_names()),
                         [](const auto& info) { return info.param; });

// A TorchScript archive (path-loaded model kind) with a float scalar LTC turns
// into device data, a buffer and a tuple output.
std::unique_ptr<Model> scripted_model(const std::filesystem::path& dir) {
  torch::jit::Module module("ScaledTwoHead");
  module.register_parameter("weight", torch::randn({10, 6}), /*is_buffer=*/false);
  module.register_buffer("offset", torch::randn({6}));
  module.define(R"(
    def forward(self, x):
        y = torch.matmul(x, self.weight) * 0.37 + self.offset
        return torch.relu(y), y.sum(dim=1) - 2.5
  )");
  const auto path = dir / "scaled_two_head.pt";
  module.save(path.string());
  return load_torchscript_model(path, "ScaledTwoHead");
}

class ScriptedLazyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    torch::manual_seed(1);
    dir_ = std::filesystem::temp_directory_path() /
           ("tracebench_lazy_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    model_ = scripted_model(dir_);
    prepare(*model_);
    inputs_ = {torch::randn({3, 10})};
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  torch::NoGradGuard no_grad_;
  std::filesystem::path dir_;
  std::unique_ptr<Model> model_;
  std::vector<c10::IValue> inputs_;
};

TEST_F(ScriptedLazyTest, BothBackendsMatchEager) {
  for (const std::string backend : {"lazy_trace_everytime", "lazy_trace_once"}) {
    auto compiled = compile(backend, *model_, inputs_);
    for (int call = 0; call < 3; ++call) {
      auto inputs = fresh_like(inputs_);
      expect_close(compiled->run(inputs), model_->forward(inputs), backend);
    }
  }
}

TEST_F(ScriptedLazyTest, TraceOnceRetracesOnShapeChange) {
  auto compiled = compile("lazy_trace_once", *model_, inputs_);
  auto wider = fresh_like(inputs_, /*batch=*/5);
  expect_close(compiled->run(wider), model_->forward(wider), "batch 5");
  EXPECT_EQ(counter(*compiled, "retraces"), 1);
  EXPECT_EQ(counter(*compiled, "traces"), 2);
  // Both signatures are now captured: no more traces for either.
  for (int call = 0; call < 2; ++call) {
    for (int64_t batch : {3, 5}) {
      auto inputs = fresh_like(inputs_, batch);
      expect_close(compiled->run(inputs), model_->forward(inputs), "replay");
    }
  }
  EXPECT_EQ(counter(*compiled, "traces"), 2);
  EXPECT_EQ(counter(*compiled, "replays"), 4);
}

// Transformer-style ops of the zoo's BERT/ViT (embedding of integer token ids,
// a mask from `tokens > 0`, masked_fill, softmax, layer_norm, gelu) in a
// TorchScript archive: both backends should match eager on fresh token ids.
// This once aborted the process (glog CHECK "Input tensor is not a lazy
// tensor: CPUFloatType"): LTC 1.13's fallback for the split_copy behind
// `chunk` returned CPU tensors. lazy_kernels.cpp gives it a lazy kernel.
TEST_F(ScriptedLazyTest, TinyEncoderWithIntegerInputs) {
  torch::jit::Module module("TinyEncoder");
  module.register_parameter("embedding", torch::randn({50, 16}), false);
  module.register_parameter("qkv", torch::randn({16, 48}) * 0.1, false);
  module.register_parameter("ln_weight", torch::ones({16}), false);
  module.register_parameter("ln_bias", torch::zeros({16}), false);
  module.define(R"(
    def forward(self, tokens):
        x = torch.embedding(self.embedding, tokens)
        mask = (tokens > 0).unsqueeze(1).repeat(1, tokens.size(1), 1)
        q, k, v = torch.matmul(x, self.qkv).chunk(3, dim=-1)
        scores = torch.matmul(q, k.transpose(-2, -1)) / 4.0
        scores = scores.masked_fill(mask == 0, -1e9)
        y = torch.matmul(torch.softmax(scores, dim=-1), v) + x
        y = torch.layer_norm(y, [16], self.ln_weight, self.ln_bias, 1e-6)
        return torch.gelu(y)
  )");
  const auto path = dir_ / "tiny_encoder.pt";
  module.save(path.string());
  auto model = load_torchscript_model(path, "TinyEncoder");
  prepare(*model);
  auto tokens = [] { return std::vector<c10::IValue>{torch::randint(0, 50, {2, 8})}; };
  const auto example = tokens();
  for (const std::string backend : {"lazy_trace_everytime", "lazy_trace_once"}) {
    auto compiled = compile(backend, *model, example);
    for (int call = 0; call < 3; ++call) {
      auto inputs = tokens();
      expect_close(compiled->run(inputs), model->forward(inputs), backend);
    }
  }
}

// An op without a lazy lowering (fft runs as an eager fallback on the CPU):
// trace-every-time gives eager's results (the fallback splits the graph);
// trace-once captures the lazy ops around it as segments, runs the fft
// eagerly between them, and counts the break.
TEST_F(ScriptedLazyTest, TraceOnceCapturesSegmentsAroundAnEagerFallback) {
  torch::jit::Module module("WithFft");
  module.register_parameter("weight", torch::randn({10}), /*is_buffer=*/false);
  module.define(R"(
    def forward(self, x):
        y = torch.fft_fft(x * self.weight).abs()
        return torch.relu(y - 1.0) * self.weight
  )");
  const auto path = dir_ / "with_fft.pt";
  module.save(path.string());
  auto model = load_torchscript_model(path, "WithFft");
  prepare(*model);
  for (const std::string backend : {"lazy_trace_everytime", "lazy_trace_once"}) {
    auto compiled = compile(backend, *model, inputs_);
    for (int call = 0; call < 3; ++call) {
      auto inputs = fresh_like(inputs_);
      expect_close(compiled->run(inputs), model->forward(inputs), backend);
    }
  }
  auto once = compile("lazy_trace_once", *model, inputs_);
  EXPECT_GE(counter(*once, "graph_breaks"), 1);
  EXPECT_EQ(counter(*once, "lazy_segments"), counter(*once, "graph_breaks") + 1);
  once->run(fresh_like(inputs_));
  EXPECT_EQ(counter(*once, "retraces"), 0);
}

// Values cross a graph break as copies, so a write through a view of a
// tensor made before the break cannot reach that tensor: trace-once refuses
// it by name rather than return a result that misses the write.
TEST_F(ScriptedLazyTest, TraceOnceRefusesAWriteThroughAViewAcrossABreak) {
  torch::jit::Module module("WritesAView");
  module.register_parameter("weight", torch::randn({10}), /*is_buffer=*/false);
  module.define(R"(
    def forward(self, x):
        out = torch.zeros_like(x)
        first_row = out[0]
        first_row.copy_(torch.fft_fft(x[0] * self.weight).abs())
        return out + 1.0
  )");
  const auto path = dir_ / "writes_a_view.pt";
  module.save(path.string());
  auto model = load_torchscript_model(path, "WritesAView");
  prepare(*model);
  try {
    compile("lazy_trace_once", *model, inputs_);
    FAIL() << "lazy_trace_once accepted a write through a view across a graph break";
  } catch (const c10::Error& error) {
    EXPECT_NE(std::string(error.what()).find("across the break"), std::string::npos)
        << error.what();
  }
}

// A buffer written in place in forward (a calibration observer's running
// maximum): a replayed capture would not repeat the write, so trace-once
// runs it eagerly on the model's own buffer after its lazy segment, warns,
// and ends with the buffer eager would have.
TEST_F(ScriptedLazyTest, TraceOnceRunsAModelTensorWriteEagerly) {
  auto observer = [this](const std::string& name) {
    torch::jit::Module module("RunningMax");
    module.register_parameter("weight", torch::randn({10}), /*is_buffer=*/false);
    module.register_buffer("seen_max", torch::full({}, -1e9));
    module.define(R"(
      def forward(self, x):
          y = torch.relu(x * self.weight)
          self.seen_max.copy_(torch.maximum(self.seen_max, y.max()))
          return y + 1.0
    )");
    const auto path = dir_ / (name + ".pt");
    module.save(path.string());
    auto model = load_torchscript_model(path, "RunningMax");
    prepare(*model);
    return model;
  };
  torch::manual_seed(3);
  auto eager = observer("eager");
  torch::manual_seed(3);
  auto traced = observer("traced");
  auto once = compile("lazy_trace_once", *traced, inputs_);  // compiling runs the example once
  eager->forward(inputs_);
  for (int call = 0; call < 3; ++call) {
    auto inputs = fresh_like(inputs_);
    inputs[0] = inputs[0].toTensor() * (call + 2);  // each call sees a new maximum
    expect_close(once->run(inputs), eager->forward(inputs), "call " + std::to_string(call));
  }
  const auto seen = [](Model& model) { return model.tensors().back(); };
  EXPECT_TRUE(torch::equal(seen(*traced), seen(*eager)))
      << seen(*traced).item<double>() << " != " << seen(*eager).item<double>();
  EXPECT_EQ(counter(*once, "model_writes_on_cpu"), 1);
  EXPECT_EQ(counter(*once, "lazy_segments"), 1);  // the write moved last: no cut before it
  EXPECT_EQ(counter(*once, "retraces"), 0);
  ASSERT_EQ(once->warnings().size(), 1u);
  EXPECT_EQ(once->warnings()[0].code, "model_writes_on_cpu");
}

// LTC has no sparse kernels: a sparse input stays on the CPU with the ops
// that read it, the dense rest runs lazily around them, and the row counts it.
TEST_F(ScriptedLazyTest, BothBackendsKeepASparseInputOnTheCpu) {
  torch::jit::Module module("SparseMix");
  module.register_parameter("weight", torch::randn({10, 10}), /*is_buffer=*/false);
  module.define(R"(
    def forward(self, x, adjacency):
        h = torch.relu(torch.matmul(x, self.weight))
        return torch.tanh(torch.mm(adjacency, h)) * 2.0
  )");
  const auto path = dir_ / "sparse_mix.pt";
  module.save(path.string());
  auto model = load_torchscript_model(path, "SparseMix");
  prepare(*model);
  auto adjacency = [] {
    auto index = torch::randint(0, 6, {2, 12});
    return torch::sparse_coo_tensor(index, torch::rand({12}), {6, 6}).coalesce();
  };
  const std::vector<c10::IValue> example = {torch::randn({6, 10}), adjacency()};
  for (const std::string backend : {"lazy_trace_everytime", "lazy_trace_once"}) {
    auto compiled = compile(backend, *model, example);
    for (int call = 0; call < 3; ++call) {
      const std::vector<c10::IValue> inputs = {torch::randn({6, 10}), adjacency()};
      expect_close(compiled->run(inputs), model->forward(inputs), backend);
    }
    EXPECT_EQ(counter(*compiled, "sparse_ops_on_cpu"), 1) << backend;
  }
}

// Nested inputs (an RNN's state (h, c), a list, a dict of tensors) reach the
// lazy backends as one graph input per tensor: each call's values are used,
// not the first call's, which a capture of a tensor inside a tuple would keep.
TEST_F(ScriptedLazyTest, BothBackendsTakeNestedInputs) {
  torch::jit::Module module("NestedInputs");
  module.register_parameter("weight", torch::randn({8, 8}), /*is_buffer=*/false);
  module.define(R"(
    def forward(self, x, state: Tuple[Tensor, Tuple[Tensor, Tensor]], extras: List[Tensor],
                named: Dict[str, Tensor]):
        h, (c, d) = state
        y = torch.tanh(torch.matmul(x + h, self.weight)) * c + d
        return y + extras[0] * named["scale"], (y.sum(dim=1), extras[1] - named["shift"])
  )");
  const auto path = dir_ / "nested_inputs.pt";
  module.save(path.string());
  auto model = load_torchscript_model(path, "NestedInputs");
  prepare(*model);
  auto inputs = [] {
    c10::impl::GenericList extras(c10::TensorType::get());
    extras.push_back(torch::randn({4, 8}));
    extras.push_back(torch::randn({3}));
    c10::impl::GenericDict named(c10::StringType::get(), c10::TensorType::get());
    named.insert("scale", torch::randn({8}));
    named.insert("shift", torch::randn({3}));
    const auto state = c10::ivalue::Tuple::create(
        {torch::randn({4, 8}),
         c10::ivalue::Tuple::create({torch::randn({4, 8}), torch::randn({4, 8})})});
    return std::vector<c10::IValue>{torch::randn({4, 8}), state, extras, named};
  };
  const auto example = inputs();
  for (const std::string backend :
       {"lazy_trace_everytime", "lazy_trace_once", "lazy_trace_once_unfrozen"}) {
    auto compiled = compile(backend, *model, example);
    for (int call = 0; call < 3; ++call) {
      const auto fresh = inputs();
      expect_close(compiled->run(fresh), model->forward(fresh), backend);
    }
  }
}

}  // namespace
}  // namespace tracebench
