#include "runner/process_settings.h"

#include <dlfcn.h>
#include <torch/torch.h>

#include <cstdlib>

namespace tracebench {

namespace {

void use_one_openblas_thread() {
  if (std::getenv("OPENBLAS_NUM_THREADS") != nullptr) return;
  // Looked up at run time: libblas.so.3 is whichever BLAS Debian's
  // alternatives point at, and only OpenBLAS has this entry point.
  using SetThreads = void(int);
  if (auto* set_threads =
          reinterpret_cast<SetThreads*>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) {
    set_threads(1);
  }
}

}  // namespace

void apply_process_settings(const RunOptions& options) {
  if (options.threads) torch::set_num_threads(static_cast<int>(*options.threads));
  use_one_openblas_thread();
}

}  // namespace tracebench
