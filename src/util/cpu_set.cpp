#include "util/cpu_set.h"

#include <sched.h>

#include <algorithm>
#include <regex>

#include "util/text.h"

namespace tracebench {

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

std::string cpu_list_text(const std::vector<int>& cpus) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < cpus.size();) {
    size_t end = i;
    while (end + 1 < cpus.size() && cpus[end + 1] == cpus[end] + 1) ++end;
    parts.push_back(end == i ? std::to_string(cpus[i])
                             : std::to_string(cpus[i]) + "-" + std::to_string(cpus[end]));
    i = end + 1;
  }
  return join(parts, ",");
}

std::optional<std::vector<int>> cpus_of_list_text(const std::string& text) {
  static const std::regex kRange(R"((\d{1,4})(?:-(\d{1,4}))?)");
  std::vector<int> cpus;
  for (const auto& part : split(text, ',')) {
    std::smatch match;
    if (!std::regex_match(part, match, kRange)) return std::nullopt;
    const int first = std::stoi(match[1].str());
    const int last = match[2].matched ? std::stoi(match[2].str()) : first;
    if (last < first) return std::nullopt;
    for (int cpu = first; cpu <= last; ++cpu) cpus.push_back(cpu);
  }
  if (cpus.empty()) return std::nullopt;
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

}  // namespace tracebench
