#include "util/error_text.h"

#include <c10/util/Exception.h>

#include "util/text.h"

namespace tracebench {

namespace {

// The TorchScript interpreter wraps an op's error in a report whose first line
// says only that an op failed; the op's own message is its last line.
constexpr const char* kInterpreterPrefix =
    "The following operation failed in the TorchScript interpreter.";

}  // namespace

std::string describe_error(const std::exception& error) {
  const auto* c10_error = dynamic_cast<const c10::Error*>(&error);
  const std::string text = c10_error ? c10_error->what_without_backtrace() : error.what();
  const std::string first = first_line(text);
  if (first != kInterpreterPrefix) return first;
  return "a TorchScript op failed: " + last_nonempty_line(text);
}

}  // namespace tracebench
