#pragma once
// How a failure is written into a result row.

#include <exception>
#include <string>

namespace tracebench {

/// The first line of what went wrong, without LibTorch's C++ backtrace.
std::string describe_error(const std::exception& error);

}  // namespace tracebench
