#pragma once
// The one line a row shows for an exception.

#include <exception>
#include <string>

namespace tracebench {

/// The first line of what went wrong, without LibTorch's C++ backtrace; for
/// an op that failed inside the TorchScript interpreter, that op's own
/// message (the interpreter's first line says only that an op failed).
std::string describe_error(const std::exception& error);

}  // namespace tracebench
