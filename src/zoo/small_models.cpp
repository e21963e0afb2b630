// Two tiny models: the seed's LinearModel and a conv-bn-relu net. They run in
// milliseconds, so the end-to-end tests and the quick start stay fast.

#include "zoo/small_models.h"

#include "zoo/inputs.h"

namespace tracebench {

namespace {

// The seed's model_collection.py LinearModel: two Linear(10, 10) layers.
struct LinearModelImpl : torch::nn::Module {
  explicit LinearModelImpl(int64_t layers = 2) {
    for (int64_t i = 0; i < layers; ++i) this->layers->push_back(torch::nn::Linear(10, 10));
    register_module("layers", this->layers);
  }
  torch::Tensor forward(torch::Tensor x) { return layers->forward(x); }

  torch::nn::Sequential layers;
};

// conv-bn-relu twice, pooled, then a classifier: the shape that the ofi
// backend's conv-bn folding and oneDNN conversion are meant for.
struct SmallConvNetImpl : torch::nn::Module {
  SmallConvNetImpl() {
    features = register_module(
        "features",
        torch::nn::Sequential(
            torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 16, 3).padding(1).bias(false)),
            torch::nn::BatchNorm2d(16), torch::nn::ReLU(),
            torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).padding(1).bias(false)),
            torch::nn::BatchNorm2d(32), torch::nn::ReLU(),
            torch::nn::AdaptiveAvgPool2d(torch::nn::AdaptiveAvgPool2dOptions({1, 1}))));
    classifier = register_module("classifier", torch::nn::Linear(32, 10));
  }
  torch::Tensor forward(torch::Tensor x) {
    return classifier->forward(torch::flatten(features->forward(x), 1));
  }

  torch::nn::Sequential features;
  torch::nn::Linear classifier{nullptr};
};

}  // namespace

ZooEntry make_linear_model_entry() {
  return {"LinearModel", "the seed's two Linear(10, 10) layers (model_collection.py)", 2,
          [](int64_t batch_size) {
            return make_zoo_model("LinearModel", std::make_shared<LinearModelImpl>(), [batch_size] {
              return std::vector<c10::IValue>{seeded_randn({batch_size, 10})};
            });
          }};
}

ZooEntry make_small_convnet_entry() {
  return {"small_convnet", "two conv-bn-relu blocks, pooling and a linear head on 3x64x64", 8,
          [](int64_t batch_size) {
            return make_zoo_model(
                "small_convnet", std::make_shared<SmallConvNetImpl>(),
                [batch_size] {
                  return std::vector<c10::IValue>{seeded_randn({batch_size, 3, 64, 64})};
                },
                classification_loss(batch_size, 10));
          }};
}

}  // namespace tracebench
