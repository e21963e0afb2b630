#pragma once
// A compiled model's counter by name, for the tests that check what a backend
// counted (quantized layers, traces, replays).

#include <gtest/gtest.h>

#include <string>

#include "tracebench/backend.h"

namespace tracebench::testing {

/// `compiled`'s counter `name`; -1, and a test failure, when it has none.
inline double counter(const CompiledModel& compiled, const std::string& name) {
  const auto counters = compiled.counters();
  auto it = counters.find(name);
  EXPECT_NE(it, counters.end()) << name;
  return it == counters.end() ? -1 : it->second;
}

}  // namespace tracebench::testing
