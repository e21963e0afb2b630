#include "runner/run_options.h"

#include "backends/registry.h"
#include "runner/training.h"
#include "tracebench/error.h"

namespace tracebench {

void validate(const RunOptions& options) {
  auto require_positive = [](const char* flag, int64_t value) {
    if (value < 1) {
      throw UsageError(std::string(flag) + " must be at least 1, got " + std::to_string(value));
    }
  };
  require_positive("--repeat", options.repeat);
  require_positive("--iterations-per-run", options.iterations_per_run);
  if (options.warmup < 0) throw UsageError("--warmup must be 0 or more");
  if (options.batch_size) require_positive("--batch-size", *options.batch_size);
  if (options.threads) require_positive("--threads", *options.threads);
  if (options.device != "cpu") {
    throw UsageError("device '" + options.device +
                     "' is not available: this LibTorch is CPU-only; use --devices cpu");
  }
  if (!(options.timeout_s > 0)) throw UsageError("--timeout must be more than 0 seconds");
  if (options.backends.empty()) throw UsageError("--backend is empty; name at least one backend");
  for (const auto& backend : options.backends) make_backend(backend);  // throws if unknown
  validate_report_options(options);
  parse_optimizer(options.optimizer);                                    // likewise
}

}  // namespace tracebench
