// End-to-end: the aot_inductor backend. On the PyTorch 2.x build it exports,
// compiles, caches and runs a package that matches eager; on LibTorch 1.x its
// row says which build it needs. (The user-model corpus runs it on every model.)

#include <gtest/gtest.h>
#include <torch/version.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "test_paths.h"
#include "util/subprocess.h"

namespace tracebench {
namespace {

namespace fs = std::filesystem;

// One aot_inductor row of small_convnet, with a package cache of its own.
nlohmann::json aot_inductor_row(const fs::path& cache, const std::string& report_name) {
  const auto report = testing::process_temp_path(report_name);
  const auto result = run_command({"/usr/bin/env", "TRACEBENCH_CACHE_DIR=" + cache.string(),
                                   TRACEBENCH_BINARY, "--performance", "-k", "^small_convnet$",
                                   "--backend=aot_inductor", "-n", "3", "--json", report.string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  std::ifstream in(report);
  return nlohmann::json::parse(in)["rows"].at(0);
}

#if TORCH_VERSION_MAJOR >= 2

TEST(AotInductor, CompilesOncePerTraceAndMatchesEager) {
  const auto cache = testing::fresh_temp_directory("aoti-cache");
  const auto first = aot_inductor_row(cache, "aoti-first.json");
  // A pass means run()'s outputs matched eager's before timing (verify_against_eager).
  ASSERT_EQ(first["status"], "pass") << first;
  EXPECT_EQ(first["counters"]["package_cached"], 0) << first;
  EXPECT_GT(first["compilation_latency_s"].get<double>(), 1.0)
      << "an inductor compile takes seconds";

  const auto second = aot_inductor_row(cache, "aoti-second.json");
  ASSERT_EQ(second["status"], "pass") << second;
  EXPECT_EQ(second["counters"]["package_cached"], 1) << second;
  EXPECT_LT(second["compilation_latency_s"].get<double>(),
            first["compilation_latency_s"].get<double>());
}

#else

TEST(AotInductor, SaysWhichBuildItNeedsOnLibTorch1) {
  const auto row = aot_inductor_row(testing::fresh_temp_directory("aoti-cache"), "aoti.json");
  EXPECT_EQ(row["status"], "unsupported") << row;
  EXPECT_NE(row["error"].get<std::string>().find("make build-torch2"), std::string::npos) << row;
}

#endif

}  // namespace
}  // namespace tracebench
