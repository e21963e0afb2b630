#pragma once
// Whether a backend can run in the requested mode and precision at all: a
// combination it cannot run becomes an `unsupported` row, not a failure.

#include <string>

#include "tracebench/backend.h"

namespace tracebench {

/// Why `backend` cannot run `mode` at `precision` (a one-line message for the
/// row), or "" when it can.
std::string unsupported_reason(const Backend& backend, Mode mode, Precision precision);

}  // namespace tracebench
