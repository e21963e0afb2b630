#include "backends/autocast_scope.h"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

namespace tracebench {

namespace {

// PyTorch 2.x names the device; its per-CPU functions are deprecated there
// and absent from the names 1.13 has (docs/pytorch2.md).
#if TORCH_VERSION_MAJOR >= 2
bool cpu_autocast_enabled() { return at::autocast::is_autocast_enabled(at::kCPU); }
c10::ScalarType cpu_autocast_dtype() { return at::autocast::get_autocast_dtype(at::kCPU); }
void set_cpu_autocast(bool enabled, c10::ScalarType dtype) {
  at::autocast::set_autocast_enabled(at::kCPU, enabled);
  at::autocast::set_autocast_dtype(at::kCPU, dtype);
}
#else
bool cpu_autocast_enabled() { return at::autocast::is_cpu_enabled(); }
c10::ScalarType cpu_autocast_dtype() { return at::autocast::get_autocast_cpu_dtype(); }
void set_cpu_autocast(bool enabled, c10::ScalarType dtype) {
  at::autocast::set_cpu_enabled(enabled);
  at::autocast::set_autocast_cpu_dtype(dtype);
}
#endif

}  // namespace

AutocastScope::AutocastScope(Precision precision) {
  if (precision != Precision::kAmp) return;
  previous_enabled_ = cpu_autocast_enabled();
  previous_dtype_ = cpu_autocast_dtype();
  set_cpu_autocast(true, torch::kBFloat16);
}

AutocastScope::~AutocastScope() {
  if (!previous_enabled_) return;
  set_cpu_autocast(*previous_enabled_, previous_dtype_);
  at::autocast::clear_cache();
}

}  // namespace tracebench
