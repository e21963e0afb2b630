#include "measure/openblas.h"

#include <dlfcn.h>

namespace tracebench {

namespace {

template <typename Function>
Function* openblas_entry(const char* name) {
  return reinterpret_cast<Function*>(dlsym(RTLD_DEFAULT, name));
}

}  // namespace

int openblas_threads() {
  auto* get_threads = openblas_entry<int()>("openblas_get_num_threads");
  return get_threads ? get_threads() : 0;
}

void set_openblas_threads(int threads) {
  if (auto* set_threads = openblas_entry<void(int)>("openblas_set_num_threads")) {
    set_threads(threads);
  }
}

}  // namespace tracebench
