#include "performance/row_statistics.h"

#include "measure/bootstrap.h"
#include "measure/diagnostics.h"
#include "measure/mann_whitney.h"

namespace tracebench {

namespace {

void append_warnings(ResultRow& row, const std::vector<NoiseWarning>& found,
                     const std::string& code_prefix, const std::string& message_prefix) {
  for (const auto& warning : found) {
    row.add_warning(code_prefix + warning.code, message_prefix + warning.message);
  }
}

}  // namespace

void add_row_statistics(ResultRow& row, uint64_t seed) {
  const auto ci = bootstrap_median_ratio_ci(row.eager_samples_s, row.samples_s,
                                            kDefaultBootstrapResamples, 0.95, seed);
  row.ci_low = ci.low;
  row.ci_high = ci.high;
  row.mann_whitney_p = mann_whitney_u_test(row.eager_samples_s, row.samples_s).p_value;

  // Labelled by role, not by backend name: in an A/A run the compared backend
  // is itself "eager", and naming both sets after it gave them the same codes
  // (the baseline's were then dropped as duplicates). Each set comes from one
  // noise_warnings call, so codes are unique without any de-duplication.
  // Appended: what the backend said of itself (auto's dropped candidates,
  // ofi_bf16's emulated bfloat16) is already on the row and stays.
  append_warnings(row, noise_warnings(row.samples_s, row.iterations_per_run), "",
                  row.backend + ": ");
  append_warnings(row, noise_warnings(row.eager_samples_s, row.iterations_per_run),
                  kBaselineWarningCodePrefix, kBaselineWarningMessagePrefix);
}

}  // namespace tracebench
