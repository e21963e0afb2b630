#include "orchestration/partition_source.h"

#include "tracebench/error.h"

namespace tracebench {

namespace {

// A variable's whole-number value; nullopt when unset. Throws for text that
// is no non-negative integer.
std::optional<int64_t> number_in(const EnvironmentLookup& environment, const char* name) {
  const char* text = environment(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  try {
    size_t used = 0;
    const long long value = std::stoll(text, &used);
    if (used == std::string(text).size() && value >= 0) return value;
  } catch (const std::exception&) {
  }
  throw UsageError(std::string(name) + "=" + text +
                   " is not a whole number; unset it, or pass --total-partitions and "
                   "--partition-id");
}

std::optional<PartitionChoice> from_slurm(std::optional<int64_t> total_flag,
                                          const EnvironmentLookup& environment) {
  const auto count = number_in(environment, "SLURM_ARRAY_TASK_COUNT");
  const auto task = number_in(environment, "SLURM_ARRAY_TASK_ID");
  if (!count || !task) return std::nullopt;
  const int64_t first = number_in(environment, "SLURM_ARRAY_TASK_MIN").value_or(0);
  const int64_t step =
      std::max<int64_t>(number_in(environment, "SLURM_ARRAY_TASK_STEP").value_or(1), 1);
  if (total_flag && *total_flag != *count) {
    throw UsageError("--total-partitions " + std::to_string(*total_flag) +
                     " disagrees with this Slurm array's SLURM_ARRAY_TASK_COUNT=" +
                     std::to_string(*count) + "; drop --total-partitions");
  }
  PartitionChoice choice;
  choice.total = *count;
  choice.id = (*task - first) / step;
  choice.source = "slurm";
  choice.said = "partition " + std::to_string(choice.id) + " of " + std::to_string(choice.total) +
                " from the Slurm array job (SLURM_ARRAY_TASK_ID=" + std::to_string(*task) +
                ", SLURM_ARRAY_TASK_MIN=" + std::to_string(first) + ")";
  return choice;
}

std::optional<PartitionChoice> from_kubernetes(std::optional<int64_t> total_flag,
                                               const EnvironmentLookup& environment) {
  const auto index = number_in(environment, "JOB_COMPLETION_INDEX");
  if (!index) return std::nullopt;
  const auto total =
      total_flag ? total_flag : number_in(environment, "TRACEBENCH_TOTAL_PARTITIONS");
  if (!total) {
    throw UsageError(
        "this pod of a Kubernetes Indexed Job has JOB_COMPLETION_INDEX but not the Job's "
        "completions; pass --total-partitions N or set TRACEBENCH_TOTAL_PARTITIONS=N");
  }
  PartitionChoice choice;
  choice.total = *total;
  choice.id = *index;
  choice.source = "kubernetes";
  choice.said = "partition " + std::to_string(choice.id) + " of " + std::to_string(choice.total) +
                " from the Kubernetes Indexed Job (JOB_COMPLETION_INDEX=" + std::to_string(*index) +
                ")";
  return choice;
}

}  // namespace

PartitionChoice choose_partition(std::optional<int64_t> total_flag, std::optional<int64_t> id_flag,
                                 const EnvironmentLookup& environment) {
  if (!id_flag) {
    if (auto slurm = from_slurm(total_flag, environment)) return *slurm;
    if (auto kubernetes = from_kubernetes(total_flag, environment)) return *kubernetes;
  }
  PartitionChoice choice;
  choice.total = total_flag.value_or(1);
  choice.id = id_flag.value_or(0);
  return choice;
}

}  // namespace tracebench
