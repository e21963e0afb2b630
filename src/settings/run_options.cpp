#include "settings/run_options.h"

namespace tracebench {

const char* sample_order_label(SampleOrder order) {
  return order == SampleOrder::kBlocked ? "blocked" : "interleaved";
}

const char* mode_label(Mode mode) { return mode == Mode::kTraining ? "train" : "eval"; }

const char* precision_label(Precision precision) {
  switch (precision) {
    case Precision::kBFloat16:
      return "bf16";
    case Precision::kAmp:
      return "amp";
    case Precision::kFloat32:
      break;
  }
  return "fp32";
}

const std::string& report_file(const RunOptions& options, const std::string& flag) {
  static const std::string kNone;
  auto it = options.report_files.find(flag);
  return it == options.report_files.end() ? kNone : it->second;
}

}  // namespace tracebench
