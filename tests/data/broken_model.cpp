// Deliberately does not compile: the loader must show the compiler's error.
#include <tracebench/model.h>

struct BrokenModel : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x + undefined_variable; }
};
TRACEBENCH_REGISTER_MODEL(BrokenModel)
