#include "screening/model_checks.h"

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

namespace tracebench {
namespace {

TEST(DenormalOutputs, CountsNonzeroValuesBelowFloatMinInNestedOutputs) {
  const float tiny = std::numeric_limits<float>::min() / 4;  // denormal
  auto first = torch::tensor({0.0f, 1.0f, tiny, -tiny});
  auto second = torch::tensor({tiny, 3e-9f});
  EXPECT_EQ(count_denormals(first), 2);
  EXPECT_EQ(count_denormals(c10::ivalue::Tuple::create({first, second})), 3);
  EXPECT_EQ(count_denormals(torch::tensor({0.0f, std::numeric_limits<float>::min()})), 0);
}

}  // namespace
}  // namespace tracebench
