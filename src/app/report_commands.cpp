#include "app/report_commands.h"

#include <algorithm>

#include "report/compare.h"
#include "report/json.h"
#include "report/merge.h"
#include "report/report_file.h"
#include "report/reporters.h"
#include "settings/setting_fields.h"
#include "tracebench/error.h"
#include "util/text.h"

namespace tracebench {

ReportCommands::ReportCommands(CLI::App& app) {
  report_ = app.add_subcommand(
      "report",
      "Write a JSON report (a run's, or merged partitions') as any report file a run writes: "
      "HTML, markdown, CSV or JSON");
  report_->add_option("results", report_input_, "A JSON file written by --json")->required();
  for (const auto& format : report_file_formats()) {
    report_
        ->add_option(std::string("--") + format.flag, report_outputs_[format.flag],
                     std::string("The ") + format.name + " file to write")
        ->type_name("FILE");
  }

  compare_ = app.add_subcommand(
      "compare", "Compare two JSON reports; exit 1 on a significant regression beyond --threshold");
  compare_->add_option("base", base_, "The baseline JSON report")->required();
  compare_->add_option("new", next_, "The JSON report to judge")->required();
  compare_
      ->add_option("--threshold", threshold_,
                   "Smallest latency increase (fraction) that counts as a regression")
      ->capture_default_str();
  compare_->add_flag("--allow-config-change", allow_config_change_,
                     "Compare runs made under different settings (precision, threads, batch "
                     "size, ...); rows are then matched on model, backend and mode");

  merge_ = app.add_subcommand("merge", "Merge JSON reports (e.g. partitions) into one");
  merge_->add_option("inputs", merge_inputs_, "JSON reports to merge")->required();
  merge_->add_option("-o,--output", merge_output_, "The merged JSON file to write")->required();
}

std::optional<int> ReportCommands::run(std::ostream& out, std::ostream& err) const {
  if (report_->parsed()) {
    std::vector<std::string> flags;
    for (const auto& format : report_file_formats()) {
      flags.push_back(std::string("--") + format.flag + " FILE");
    }
    const auto given = [this](const ReportFileFormat& format) {
      return report_outputs_.at(format.flag);
    };
    const auto& formats = report_file_formats();
    if (std::all_of(formats.begin(), formats.end(),
                    [&](const auto& format) { return given(format).empty(); })) {
      throw UsageError("report: nothing to write; add " + join(flags, ", "));
    }
    const auto report = read_report(report_input_);
    for (const auto& format : formats) {
      if (given(format).empty()) continue;
      write_report_file(given(format), format.flag, format.render(report));
      out << "wrote " << given(format) << " (" << report.rows.size() << " rows)" << std::endl;
    }
    return 0;
  }
  if (compare_->parsed()) {
    if (!(threshold_ >= 0)) throw UsageError("--threshold must be 0 or more (a fraction)");
    const auto base = read_report(base_);
    const auto next = read_report(next_);
    const std::string differing =
        join(differing_settings(base, next, settings_that_change_numbers()), "; ");
    if (!differing.empty() && !allow_config_change_) {
      throw UsageError("the two runs were measured under different settings (" + differing +
                       "); re-run one with the other's settings, or pass --allow-config-change");
    }
    const auto comparison = compare_reports(base, next, threshold_, 0.05, !differing.empty());
    if (!differing.empty()) out << "settings differ (--allow-config-change): " << differing << "\n";
    out << format_comparison(comparison);
    return comparison.regressions > 0 ? 1 : 0;
  }
  if (merge_->parsed()) {
    std::vector<std::pair<std::string, RunReport>> inputs;
    for (const auto& path : merge_inputs_) inputs.emplace_back(path, read_report(path));
    const auto merged = merge_reports(inputs);
    const auto coverage = partition_coverage(inputs);
    write_report_file(merge_output_, "output", render_json(merged));
    out << "wrote " << merge_output_ << " (" << merged.rows.size() << " rows from " << inputs.size()
        << " files)" << std::endl;
    if (coverage.missing.empty()) return 0;
    // The partial merge is written (nothing lost), but it is not the whole run.
    std::vector<std::string> ids;
    for (const int64_t id : coverage.missing) ids.push_back(std::to_string(id));
    err << "tracebench: merge: partition(s) " << join(ids, ", ") << " of " << coverage.total
        << " missing; run them (--partition-id) and merge again" << std::endl;
    return 1;
  }
  return std::nullopt;
}

}  // namespace tracebench
