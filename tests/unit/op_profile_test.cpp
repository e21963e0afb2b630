// The op profiler behind --profile: self times from LibTorch's own profiler
// events, and a Chrome trace that holds every op run.

#include <gtest/gtest.h>
#include <torch/script.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "measure/op_profile.h"
#include "test_paths.h"

namespace tracebench {
namespace {

TEST(OpProfile, CountsCallsAndSelfTimeAndWritesAChromeTrace) {
  const auto a = torch::randn({256, 256});
  const auto weight = torch::randn({64, 256});
  const auto trace = testing::process_temp_path("ops.json").string();
  const auto ops = profile_ops(
      [&] {
        for (int i = 0; i < 3; ++i) torch::mm(a, a);
        torch::matmul(a, weight.t());  // calls aten::mm inside
      },
      trace);
  ASSERT_FALSE(ops.empty());
  double shares = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    shares += ops[i].share;
    EXPECT_GE(ops[i].self_ms, 0) << ops[i].name;
    if (i > 0) {
      EXPECT_GE(ops[i - 1].self_ms, ops[i].self_ms);  // most first
    }
  }
  EXPECT_NEAR(shares, 1.0, 1e-9);  // every op kept: fewer than 15
  const auto mm = std::find_if(ops.begin(), ops.end(),
                               [](const OpSelfTime& op) { return op.name == "aten::mm"; });
  ASSERT_NE(mm, ops.end());
  EXPECT_EQ(mm->calls, 4);  // three direct calls, one inside matmul

  std::ifstream in(trace);
  const auto json = nlohmann::json::parse(in);
  ASSERT_TRUE(json["traceEvents"].is_array());
  int mm_events = 0;
  double matmul_dur = -1, matmul_self = -1;
  for (const auto& event : json["traceEvents"]) {
    EXPECT_EQ(event["ph"], "X");
    EXPECT_GE(event["dur"].get<double>(), 0);
    if (event["name"] == "aten::mm") ++mm_events;
    if (event["name"] == "aten::matmul") {
      matmul_dur = event["dur"].get<double>();
      matmul_self = event["args"]["self_us"].get<double>();
    }
  }
  EXPECT_EQ(mm_events, mm->calls);
  // matmul's own time excludes the mm it called.
  ASSERT_GE(matmul_dur, 0);
  EXPECT_LT(matmul_self, matmul_dur);
}

TEST(OpProfile, KeepsTheTopOps) {
  const auto a = torch::randn({64, 64});
  const auto ops = profile_ops(
      [&] {
        torch::mm(a, a);
        torch::relu(a);
        torch::sigmoid(a);
      },
      testing::process_temp_path("top.json").string(), 2);
  EXPECT_EQ(ops.size(), 2u);
}

TEST(OpProfile, AnUnwritableTraceThrows) {
  EXPECT_THROW(profile_ops([] {}, "/nonexistent-dir/trace.json"), std::runtime_error);
}

}  // namespace
}  // namespace tracebench
