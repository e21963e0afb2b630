// Validation of the measurement and report options (kept apart from
// run_options.cpp so each concern has its own file).

#include <string>

#include "runner/run_options.h"
#include "tracebench/error.h"

namespace tracebench {

void validate_report_options(const RunOptions& options) {
  if (options.target_ci < 0 || options.target_ci >= 1) {
    throw UsageError("--target-ci must be in [0, 1) (a fraction, e.g. 0.01 for 1%), got " +
                     std::to_string(options.target_ci));
  }
  if (options.max_time_s < 0) throw UsageError("--max-time must be 0 (no cap) or more seconds");
  if (options.total_partitions < 1) {
    throw UsageError("--total-partitions must be at least 1, got " +
                     std::to_string(options.total_partitions));
  }
  if (options.partition_id < 0 || options.partition_id >= options.total_partitions) {
    throw UsageError("--partition-id must be in [0, " +
                     std::to_string(options.total_partitions - 1) + "] for --total-partitions " +
                     std::to_string(options.total_partitions) + ", got " +
                     std::to_string(options.partition_id));
  }
}

}  // namespace tracebench
