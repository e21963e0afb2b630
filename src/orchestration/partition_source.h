#pragma once
// Which partition of a scaled-out run this process is (docs/scale-out.md): the
// --total-partitions/--partition-id flags, else what the job scheduler that
// started it says: a Slurm array task, or a pod of a Kubernetes Indexed Job.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace tracebench {

struct PartitionChoice {
  int64_t total = 1;
  int64_t id = 0;
  /// Where they came from: "flags" (or the default), "slurm" or "kubernetes".
  std::string source = "flags";
  /// The one line that says so on stderr; "" for the flags.
  std::string said;
};

/// Reads an environment variable: nullptr when unset (std::getenv's contract).
using EnvironmentLookup = std::function<const char*(const char*)>;

/// The flags, when --partition-id is given (`id_flag`). Otherwise a Slurm
/// array job's: SLURM_ARRAY_TASK_COUNT tasks, this one (SLURM_ARRAY_TASK_ID -
/// SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP. Else a Kubernetes Indexed
/// Job's JOB_COMPLETION_INDEX, of --total-partitions or
/// TRACEBENCH_TOTAL_PARTITIONS (a pod is not told the Job's completions).
/// Else the flags. Throws UsageError naming the fix for a variable that is no
/// number, an index without a count, or a --total-partitions the array
/// contradicts.
PartitionChoice choose_partition(std::optional<int64_t> total_flag, std::optional<int64_t> id_flag,
                                 const EnvironmentLookup& environment);

}  // namespace tracebench
