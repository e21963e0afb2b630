#include "runner/model_checks.h"

#include <gtest/gtest.h>

#include "backends/registry.h"

namespace tracebench {
namespace {

TEST(BackendSupport, AmpIsUnsupportedOnTheLazyDevice) {
  for (const std::string name : {"lazy_trace_everytime", "lazy_trace_once"}) {
    const auto reason = unsupported_reason(*make_backend(name), Mode::kInference, Precision::kAmp);
    EXPECT_NE(reason.find("does not support --amp"), std::string::npos) << name << ": " << reason;
    EXPECT_EQ(unsupported_reason(*make_backend(name), Mode::kTraining, Precision::kFloat32), "");
  }
  EXPECT_EQ(unsupported_reason(*make_backend("eager"), Mode::kInference, Precision::kAmp), "");
}

TEST(BackendSupport, TrainingNeedsABackendThatSupportsIt) {
  EXPECT_EQ(unsupported_reason(*make_backend("ofi"), Mode::kTraining, Precision::kFloat32),
            "ofi does not support --training");
  EXPECT_EQ(unsupported_reason(*make_backend("ts"), Mode::kTraining, Precision::kFloat32), "");
}

}  // namespace
}  // namespace tracebench
