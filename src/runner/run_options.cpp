#include "runner/run_options.h"

namespace tracebench {

const char* sample_order_label(SampleOrder order) {
  return order == SampleOrder::kBlocked ? "blocked" : "interleaved";
}

const std::string& report_file(const RunOptions& options, const std::string& flag) {
  static const std::string kNone;
  auto it = options.report_files.find(flag);
  return it == options.report_files.end() ? kNone : it->second;
}

}  // namespace tracebench
