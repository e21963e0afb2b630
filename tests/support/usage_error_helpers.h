#pragma once
// Checking the message of a UsageError, the one-line error users see.

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "tracebench/error.h"

namespace tracebench::testing {

/// The UsageError's message `action` throws, or "(no UsageError)".
inline std::string usage_error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const UsageError& error) {
    return error.what();
  }
  return "(no UsageError)";
}

}  // namespace tracebench::testing

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)
