#include "runner/error_text.h"

#include <c10/util/Exception.h>

namespace tracebench {

std::string describe_error(const std::exception& error) {
  const auto* c10_error = dynamic_cast<const c10::Error*>(&error);
  const std::string text = c10_error ? c10_error->what_without_backtrace() : error.what();
  return text.substr(0, text.find('\n'));
}

}  // namespace tracebench
