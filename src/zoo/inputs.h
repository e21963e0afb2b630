#pragma once
// Deterministic example inputs: the same seed gives the same tensors on every
// run and every machine, whatever the global torch seed is.

#include <torch/script.h>

#include <cstdint>
#include <vector>

namespace tracebench {

inline constexpr uint64_t kExampleInputSeed = 1337;

/// Standard-normal float tensor of `shape` drawn from a private generator.
torch::Tensor seeded_randn(at::IntArrayRef shape, uint64_t seed = kExampleInputSeed);

/// Integers uniform in [low, high) drawn from a private generator.
torch::Tensor seeded_randint(int64_t low, int64_t high, at::IntArrayRef shape,
                             uint64_t seed = kExampleInputSeed);

}  // namespace tracebench
