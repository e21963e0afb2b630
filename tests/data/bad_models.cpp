// Models that misbehave on purpose, one class each, for the robustness tests
// (docs/robustness.md) and the --shape-set tests. Load with --only=path:tests/data/bad_models.cpp,class:NAME.
#include <tracebench/model.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace {
torch::Tensor input() { return torch::ones({2, 4}); }
}  // namespace

// Works: the control in a suite of bad models.
struct GoodModel : torch::nn::Module {
  GoodModel() { linear = register_module("linear", torch::nn::Linear(4, 4)); }
  torch::Tensor forward(torch::Tensor x) { return linear(x); }
  std::vector<torch::Tensor> get_example_inputs() { return {input()}; }
  torch::nn::Linear linear{nullptr};
};
TRACEBENCH_REGISTER_MODEL(GoodModel)

struct ThrowsInForward : torch::nn::Module {
  torch::Tensor forward(torch::Tensor) { throw std::runtime_error("ThrowsInForward: on purpose"); }
  std::vector<torch::Tensor> get_example_inputs() { return {input()}; }
};
TRACEBENCH_REGISTER_MODEL(ThrowsInForward)

struct ReturnsNaN : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * std::numeric_limits<float>::quiet_NaN(); }
  std::vector<torch::Tensor> get_example_inputs() { return {input()}; }
};
TRACEBENCH_REGISTER_MODEL(ReturnsNaN)

// (x, (x+1, [x*2, x*3]), {"a": x-1}): tuples, a list and a dict, nested.
struct NestedOutput : torch::nn::Module {
  c10::IValue forward(torch::Tensor x) {
    c10::Dict<std::string, torch::Tensor> dict;
    dict.insert("a", x - 1);
    c10::List<torch::Tensor> list({x * 2, x * 3});
    return c10::ivalue::Tuple::create(
        {x, c10::ivalue::Tuple::create({x + 1, c10::IValue(list)}), c10::IValue(dict)});
  }
  std::vector<torch::Tensor> get_example_inputs() { return {input()}; }
};
TRACEBENCH_REGISTER_MODEL(NestedOutput)

struct Segfaults : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::raise(SIGSEGV);
    return x;
  }
  std::vector<torch::Tensor> get_example_inputs() { return {input()}; }
};
TRACEBENCH_REGISTER_MODEL(Segfaults)

struct Aborts : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::abort();
    return x;
  }
  std::vector<torch::Tensor> get_example_inputs() { return {input()}; }
};
TRACEBENCH_REGISTER_MODEL(Aborts)

struct Hangs : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return x;
  }
  std::vector<torch::Tensor> get_example_inputs() { return {input()}; }
};
TRACEBENCH_REGISTER_MODEL(Hangs)

// Reserves 1 GiB at a time without touching it, so it fails fast under a
// memory limit (ulimit -v) instead of eating the machine; gives up at 1 TiB.
struct AllocatesForever : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) {
    std::vector<torch::Tensor> hoard;
    for (int i = 0; i < 1024; ++i) hoard.push_back(torch::empty({int64_t{1} << 30}, torch::kUInt8));
    return x;
  }
  std::vector<torch::Tensor> get_example_inputs() { return {input()}; }
};
TRACEBENCH_REGISTER_MODEL(AllocatesForever)

// get_example_inputs returning something other than tensors.
struct NonTensorInputs : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x; }
  std::vector<c10::IValue> get_example_inputs() { return {c10::IValue(3), c10::IValue("text")}; }
};
TRACEBENCH_REGISTER_MODEL(NonTensorInputs)

// Read their batch size in C++, which a trace of them holds as the example's
// (2): the graph fails at any other batch (ReshapesByItsBatch), or runs there
// and is wrong (ScalesByItsBatch: by 1 at the example's batch, by -1 at 4, so
// that the performance mode's cosine check sees it too), while eager is right
// at every batch (tests/e2e/shape_set_test.cpp).
struct ReshapesByItsBatch : GoodModel {
  torch::Tensor forward(torch::Tensor x) { return linear(x).reshape({x.size(0) * 4}); }
};
TRACEBENCH_REGISTER_MODEL(ReshapesByItsBatch)

struct ScalesByItsBatch : GoodModel {
  torch::Tensor forward(torch::Tensor x) { return linear(x) * (3 - x.size(0)); }
};
TRACEBENCH_REGISTER_MODEL(ScalesByItsBatch)
