#include "zoo/inputs.h"

#include <ATen/CPUGeneratorImpl.h>

namespace tracebench {

torch::Tensor seeded_randn(at::IntArrayRef shape, uint64_t seed) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  return at::randn(shape, generator, torch::kFloat32);
}

torch::Tensor seeded_randint(int64_t low, int64_t high, at::IntArrayRef shape, uint64_t seed) {
  auto generator = at::make_generator<at::CPUGeneratorImpl>(seed);
  return at::randint(low, high, shape, generator, torch::kInt64);
}

}  // namespace tracebench
