#pragma once
// A sweep's rows split by point (settings/sweep.h), for the writers that show
// one grid or chart per point. Found from the rows alone, so that a report
// read back from JSON splits as the run did.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/result_row.h"

namespace tracebench {

/// "batch 8, 2 threads, jemalloc", naming only the axes given (allocator ""
/// is not given); "" for none.
std::string sweep_label(std::optional<int64_t> batch_size, std::optional<int64_t> threads,
                        const std::string& allocator = "");

/// The sweep point `row` was measured at, naming the axes that `settings` (a
/// report's "config", execution/run_context.h) sweeps; "" when it sweeps none.
std::string row_sweep_label(const ResultRow& row, const nlohmann::json& settings);

struct SweepGroup {
  std::string label;  // sweep_label of the point; "" when the rows hold no sweep
  std::vector<ResultRow> rows;
};

/// The rows of each point, points in first-seen order. An axis is swept when
/// some model and backend have rows at two of its values (two batch sizes,
/// two thread counts or two allocators); the model's own batch sizes, which
/// differ between models, are no sweep. One group, labelled "", when nothing
/// is swept.
std::vector<SweepGroup> sweep_groups(const std::vector<ResultRow>& rows);

/// Whether `rows` hold some model and backend at two batch sizes.
bool sweeps_batch_size(const std::vector<ResultRow>& rows);

/// Whether `rows` hold some model and backend under two allocators.
bool sweeps_allocator(const std::vector<ResultRow>& rows);

}  // namespace tracebench
