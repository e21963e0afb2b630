#pragma once
// The subcommands that read JSON reports: `report` (any report file), `compare` (two
// runs, CI gate) and `merge` (partitions into one file).

#include <CLI/CLI.hpp>

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tracebench {

class ReportCommands {
 public:
  /// Registers the three subcommands on `app`.
  explicit ReportCommands(CLI::App& app);

  /// Runs whichever of them was parsed and returns its exit code; nullopt if
  /// none was. Throws UsageError for bad input (exit code 2).
  std::optional<int> run(std::ostream& out, std::ostream& err) const;

 private:
  CLI::App* report_;
  CLI::App* compare_;
  CLI::App* merge_;
  std::string report_input_;
  /// The file to write per report file format's flag ("" for none).
  std::map<std::string, std::string> report_outputs_;
  std::string base_, next_;
  double threshold_ = 0.05;
  bool allow_config_change_ = false;
  std::vector<std::string> merge_inputs_;
  std::string merge_output_;
};

}  // namespace tracebench
