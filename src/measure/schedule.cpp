#include "measure/schedule.h"

#include <algorithm>
#include <numeric>
#include <random>  // std::mt19937_64

namespace tracebench {

std::vector<std::vector<size_t>> interleaved_schedule(size_t participants, size_t repeats,
                                                      uint64_t seed) {
  std::mt19937_64 generator(seed);
  std::vector<size_t> order(participants);
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::vector<size_t>> schedule;
  schedule.reserve(repeats);
  for (size_t r = 0; r < repeats; ++r) {
    // Fisher-Yates on the raw engine output: std::shuffle and the standard
    // distributions differ between standard libraries, mt19937_64 does not.
    // (The modulo bias is below 2^-58 for any realistic backend count.)
    for (size_t i = participants; i > 1; --i) {
      std::swap(order[i - 1], order[generator() % i]);
    }
    schedule.push_back(order);
  }
  return schedule;
}

}  // namespace tracebench
