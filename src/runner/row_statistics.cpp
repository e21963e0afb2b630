#include "runner/row_statistics.h"

#include <algorithm>

#include "measure/bootstrap.h"
#include "measure/diagnostics.h"
#include "measure/mann_whitney.h"

namespace tracebench {

void add_row_statistics(ResultRow& row, uint64_t seed) {
  const auto ci = bootstrap_median_ratio_ci(row.eager_samples_s, row.samples_s,
                                            kDefaultBootstrapResamples, 0.95, seed);
  row.ci_low = ci.low;
  row.ci_high = ci.high;
  row.mann_whitney_p = mann_whitney_u_test(row.eager_samples_s, row.samples_s).p_value;

  row.warning_codes.clear();
  row.warnings.clear();
  auto add = [&](const std::vector<NoiseWarning>& found, const std::string& who) {
    for (const auto& warning : found) {
      const std::string code = who == "eager" ? "eager_" + warning.code : warning.code;
      if (std::find(row.warning_codes.begin(), row.warning_codes.end(), code) !=
          row.warning_codes.end()) {
        continue;
      }
      row.warning_codes.push_back(code);
      row.warnings.push_back(who + ": " + warning.message);
    }
  };
  add(noise_warnings(row.samples_s, row.iterations_per_run), row.backend);
  add(noise_warnings(row.eager_samples_s, row.iterations_per_run), "eager");
}

}  // namespace tracebench
