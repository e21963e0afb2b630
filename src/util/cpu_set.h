#pragma once
// The CPUs a process may run on, and the list text people write them in
// (taskset's and numactl's "0-3,6").

#include <optional>
#include <string>
#include <vector>

namespace tracebench {

/// The CPUs this process may run on (sched_getaffinity), ascending; empty
/// when they cannot be read.
std::vector<int> allowed_cpus();

/// Ascending CPU numbers as the shortest list text ("0-3,6"); "" for none.
std::string cpu_list_text(const std::vector<int>& cpus);

/// The CPUs of list text such as "0-3,6" (as /sys and --cpus write them),
/// ascending and each once; nullopt for text that is not such a list.
std::optional<std::vector<int>> cpus_of_list_text(const std::string& text);

}  // namespace tracebench
