#include "app/partition_flags.h"

#include <cstdlib>

#include "orchestration/partition_source.h"

namespace tracebench {

void resolve_partition(const CLI::App& app, RunOptions& options, std::ostream& err) {
  auto given = [&app](const char* flag, int64_t value) {
    return app.get_option(flag)->count() > 0 ? std::optional<int64_t>(value) : std::nullopt;
  };
  const PartitionChoice choice =
      choose_partition(given("--total-partitions", options.total_partitions),
                       given("--partition-id", options.partition_id),
                       [](const char* name) { return std::getenv(name); });
  options.total_partitions = choice.total;
  options.partition_id = choice.id;
  options.partition_source = choice.source;
  if (!choice.said.empty()) err << "tracebench: " << choice.said << std::endl;
}

}  // namespace tracebench
