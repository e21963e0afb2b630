#include "orchestration/partition.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "orchestration/partition_source.h"
#include "report/merge.h"
#include "usage_error_helpers.h"

namespace tracebench {
namespace {

struct Named {
  std::string name;
};

std::vector<std::string> names(const std::vector<Named>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) out.push_back(item.name);
  return out;
}

const std::vector<Named> kTen = {{"j"}, {"a"}, {"c"}, {"b"}, {"e"},
                                 {"d"}, {"g"}, {"f"}, {"i"}, {"h"}};

TEST(Partition, SortedContiguousChunksLastTakesRemainder) {
  EXPECT_EQ(names(partition_models(kTen, 3, 0)), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(names(partition_models(kTen, 3, 1)), (std::vector<std::string>{"d", "e", "f"}));
  EXPECT_EQ(names(partition_models(kTen, 3, 2)), (std::vector<std::string>{"g", "h", "i", "j"}));
  EXPECT_EQ(partition_models(kTen, 1, 0).size(), 10u);
}

TEST(Partition, EveryModelExactlyOnce) {
  for (int total = 1; total <= 12; ++total) {
    size_t count = 0;
    for (int id = 0; id < total; ++id) count += partition_models(kTen, total, id).size();
    EXPECT_EQ(count, 10u) << total;
  }
}

TEST(Partition, RangeErrors) {
  EXPECT_THROW(partition_models(kTen, 0, 0), UsageError);
  EXPECT_THROW(partition_models(kTen, 3, 3), UsageError);
  EXPECT_THROW(partition_models(kTen, 3, -1), UsageError);
}

// A scheduler's environment, as a test sets it: the variables a Slurm array
// task or a Kubernetes Indexed Job's pod is started with.
EnvironmentLookup environment_of(std::map<std::string, std::string> variables) {
  return [variables = std::move(variables)](const char* name) -> const char* {
    const auto it = variables.find(name);
    return it == variables.end() ? nullptr : it->second.c_str();
  };
}

TEST(PartitionSource, FlagsWinElseSlurmElseKubernetes) {
  const auto slurm = environment_of({{"SLURM_ARRAY_TASK_COUNT", "3"},
                                     {"SLURM_ARRAY_TASK_ID", "6"},
                                     {"SLURM_ARRAY_TASK_MIN", "4"},
                                     {"JOB_COMPLETION_INDEX", "0"}});
  auto choice = choose_partition(std::nullopt, std::nullopt, slurm);
  EXPECT_EQ(choice.total, 3);
  EXPECT_EQ(choice.id, 2);  // task 6 of an array starting at 4
  EXPECT_EQ(choice.source, "slurm");
  EXPECT_CONTAINS(choice.said, "partition 2 of 3 from the Slurm array job");

  choice = choose_partition(4, 1, slurm);  // --partition-id given: the flags
  EXPECT_EQ(choice.total, 4);
  EXPECT_EQ(choice.id, 1);
  EXPECT_EQ(choice.source, "flags");
  EXPECT_EQ(choice.said, "");

  // --array=10-20:5 gives tasks 10, 15, 20: partitions 0, 1, 2.
  choice = choose_partition(std::nullopt, std::nullopt,
                            environment_of({{"SLURM_ARRAY_TASK_COUNT", "3"},
                                            {"SLURM_ARRAY_TASK_ID", "20"},
                                            {"SLURM_ARRAY_TASK_MIN", "10"},
                                            {"SLURM_ARRAY_TASK_STEP", "5"}}));
  EXPECT_EQ(choice.id, 2);

  const auto pod = environment_of({{"JOB_COMPLETION_INDEX", "1"}});
  choice = choose_partition(2, std::nullopt, pod);
  EXPECT_EQ(choice.total, 2);
  EXPECT_EQ(choice.id, 1);
  EXPECT_EQ(choice.source, "kubernetes");
  choice = choose_partition(
      std::nullopt, std::nullopt,
      environment_of({{"JOB_COMPLETION_INDEX", "3"}, {"TRACEBENCH_TOTAL_PARTITIONS", "4"}}));
  EXPECT_EQ(choice.total, 4);
  EXPECT_EQ(choice.id, 3);

  choice = choose_partition(std::nullopt, std::nullopt, environment_of({}));
  EXPECT_EQ(choice.total, 1);
  EXPECT_EQ(choice.id, 0);
}

TEST(PartitionSource, WhatCannotBeUsedNamesTheFix) {
  EXPECT_CONTAINS(testing::usage_error_of([] {
                    choose_partition(std::nullopt, std::nullopt,
                                     environment_of({{"JOB_COMPLETION_INDEX", "1"}}));
                  }),
                  "pass --total-partitions N or set TRACEBENCH_TOTAL_PARTITIONS=N");
  EXPECT_CONTAINS(testing::usage_error_of([] {
                    choose_partition(std::nullopt, std::nullopt,
                                     environment_of({{"JOB_COMPLETION_INDEX", "one"}}));
                  }),
                  "JOB_COMPLETION_INDEX=one is not a whole number");
  EXPECT_CONTAINS(testing::usage_error_of([] {
                    choose_partition(5, std::nullopt,
                                     environment_of({{"SLURM_ARRAY_TASK_COUNT", "2"},
                                                     {"SLURM_ARRAY_TASK_ID", "0"}}));
                  }),
                  "--total-partitions 5 disagrees with this Slurm array's");
}

std::pair<std::string, RunReport> partition_report(const std::string& path, int64_t total,
                                                   int64_t id) {
  RunReport report;
  report.config = {{"total_partitions", total}, {"partition_id", id}};
  return {path, report};
}

TEST(PartitionCoverage, ListsThePartitionsNoInputHolds) {
  const auto coverage =
      partition_coverage({partition_report("p0.json", 4, 0), partition_report("p2.json", 4, 2)});
  EXPECT_EQ(coverage.total, 4);
  EXPECT_EQ(coverage.missing, (std::vector<int64_t>{1, 3}));
  EXPECT_TRUE(
      partition_coverage({partition_report("p0.json", 2, 0), partition_report("p1.json", 2, 1)})
          .missing.empty());
  // Whole runs of different models are no partitions: nothing is missing.
  EXPECT_TRUE(partition_coverage({partition_report("a.json", 1, 0)}).missing.empty());
  EXPECT_CONTAINS(
      testing::usage_error_of([] {
        partition_coverage({partition_report("a.json", 2, 0), partition_report("b.json", 3, 1)});
      }),
      "merge the partitions of one run");
}

}  // namespace
}  // namespace tracebench
