#include "backends/autocast_scope.h"

#include <ATen/autocast_mode.h>

namespace tracebench {

AutocastScope::AutocastScope(Precision precision) {
  if (precision != Precision::kAmp) return;
  previous_enabled_ = at::autocast::is_cpu_enabled();
  previous_dtype_ = at::autocast::get_autocast_cpu_dtype();
  at::autocast::set_cpu_enabled(true);
  at::autocast::set_autocast_cpu_dtype(torch::kBFloat16);
}

AutocastScope::~AutocastScope() {
  if (!previous_enabled_) return;
  at::autocast::set_cpu_enabled(*previous_enabled_);
  at::autocast::set_autocast_cpu_dtype(previous_dtype_);
  at::autocast::clear_cache();
}

}  // namespace tracebench
