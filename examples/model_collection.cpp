// The seed's model_collection.py, in C++: benchmark it with
//   tracebench --performance --only=path:examples/model_collection.cpp,class:LinearModel
//   --backend=eager
// tracebench compiles this file with the compiler and flags it was built with,
// caches the library by content hash, and finds the class by its registration.

#include <tracebench/model.h>

// Two Linear(10, 10) layers, as in the seed.
struct LinearModel : torch::nn::Module {
  explicit LinearModel(int64_t nlayer = 2) {
    for (int64_t i = 0; i < nlayer; ++i) layers->push_back(torch::nn::Linear(10, 10));
    register_module("layers", layers);
  }

  torch::Tensor forward(torch::Tensor x) { return layers->forward(x); }

  std::vector<torch::Tensor> get_example_inputs() { return {torch::randn({2, 10})}; }

  torch::nn::Sequential layers;
};
TRACEBENCH_REGISTER_MODEL(LinearModel)

// A model with two inputs and a tuple output, to show forward's general shape.
struct TwoHeadModel : torch::nn::Module {
  TwoHeadModel() {
    left = register_module("left", torch::nn::Linear(10, 4));
    right = register_module("right", torch::nn::Linear(6, 4));
  }

  std::tuple<torch::Tensor, torch::Tensor> forward(torch::Tensor a, torch::Tensor b) {
    auto l = torch::relu(left(a)), r = torch::relu(right(b));
    return {l + r, l * r};
  }

  std::vector<torch::Tensor> get_example_inputs() {
    return {torch::randn({8, 10}), torch::randn({8, 6})};
  }

  torch::nn::Linear left{nullptr}, right{nullptr};
};
TRACEBENCH_REGISTER_MODEL(TwoHeadModel)
