#include "app/request.h"

#include <cstdlib>

#include "orchestration/launcher.h"
#include "orchestration/partition_source.h"
#include "settings/setting_fields.h"

namespace tracebench {

namespace {

void resolve_partition(const CLI::App& app, RunOptions& request, std::ostream& err) {
  auto given = [&app](const char* flag, int64_t value) {
    return app.get_option(flag)->count() > 0 ? std::optional<int64_t>(value) : std::nullopt;
  };
  const PartitionChoice choice =
      choose_partition(given("--total-partitions", request.total_partitions),
                       given("--partition-id", request.partition_id),
                       [](const char* name) { return std::getenv(name); });
  request.total_partitions = choice.total;
  request.partition_id = choice.id;
  request.partition_source = choice.source;
  if (!choice.said.empty()) err << "tracebench: " << choice.said << std::endl;
}

}  // namespace

RunOptions complete_request(const CLI::App& app, RunOptions parsed, std::ostream& err) {
  RunOptions request = std::move(parsed);
  request.child_args = child_arguments(app);
  request.requested = requested_settings(app, request);
  // A model's child process: its parent chose the partition and the allocator.
  if (!request.rows_to.empty()) return request;
  resolve_partition(app, request, err);
  // Without --malloc, each model's process inherits this one's allocator
  // (GLIBC_TUNABLES, LD_PRELOAD): the run records and resumes by that one.
  request.inherited_allocator = allocator_in_use();
  return request;
}

}  // namespace tracebench
