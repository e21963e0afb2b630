#pragma once
/// Errors that users can fix. `main` turns them into one line and exit code 2.

#include <stdexcept>
#include <string>

namespace tracebench {

/// A mistake in what the user asked for (bad flag, bad model spec, missing file,
/// a model that does not compile). The message must name the fix.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace tracebench
