#pragma once
// The order in which backends take their turns. Shuffling every repetition
// spreads frequency scaling and background load evenly over all backends,
// where a fixed eager-then-compiled order (the dynamo runner's) does not.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tracebench {

/// `repeats` permutations of 0..participants-1, drawn from a generator seeded
/// with `seed`: the same arguments always give the same schedule.
std::vector<std::vector<size_t>> interleaved_schedule(size_t participants, size_t repeats,
                                                      uint64_t seed);

}  // namespace tracebench
