#include "runner/process_settings.h"

#include <torch/torch.h>

#include <cstdlib>

#include "measure/openblas.h"

namespace tracebench {

void apply_process_settings(const RunOptions& options) {
  if (options.threads) torch::set_num_threads(static_cast<int>(*options.threads));
  if (std::getenv("OPENBLAS_NUM_THREADS") == nullptr) set_openblas_threads(1);
}

}  // namespace tracebench
