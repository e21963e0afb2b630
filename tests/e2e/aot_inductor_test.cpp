// End-to-end: the aot_inductor backend. On the PyTorch 2.x build it exports,
// compiles, caches and runs a package that matches eager; on LibTorch 1.x its
// row says which build it needs. (The user-model corpus runs it on every model.)

#include <gtest/gtest.h>
#include <torch/version.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_paths.h"
#include "util/subprocess.h"

namespace tracebench {
namespace {

namespace fs = std::filesystem;

// One aot_inductor (or `backend`) row of small_convnet, with a package cache
// of its own.
nlohmann::json aot_inductor_row(const fs::path& cache, const std::string& report_name,
                                const std::string& backend = "aot_inductor") {
  const auto report = testing::process_temp_path(report_name);
  const auto result =
      run_command({"/usr/bin/env", "TRACEBENCH_CACHE_DIR=" + cache.string(),
                   testing::tracebench_binary(), "--performance", "-k", "^small_convnet$",
                   "--backend=" + backend, "-n", "3", "--json", report.string()});
  EXPECT_EQ(result.exit_code, 0) << result.output;
  std::ifstream in(report);
  return nlohmann::json::parse(in)["rows"].at(0);
}

#if TORCH_VERSION_MAJOR >= 2

// How many of the package's constants are in oneDNN's layout, as its wrapper
// code declares them: a convolution weight that inductor's freezing prepacked.
int onednn_layout_constants(const fs::path& package) {
  const char* kCount =
      "import sys, zipfile\n"
      "declared = 'static_cast<int32_t>(cached_torch_layout__mkldnn)'\n"
      "archive = zipfile.ZipFile(sys.argv[1])\n"
      "print(sum(archive.read(name).decode().count(declared)\n"
      "          for name in archive.namelist() if name.endswith('.wrapper.cpp')))";
  const auto counted = run_command({"/usr/bin/python3", "-c", kCount, package.string()});
  EXPECT_EQ(counted.exit_code, 0) << counted.output;
  return std::stoi(counted.output);
}

TEST(AotInductor, CompilesOncePerTraceAndMatchesEager) {
  const auto cache = testing::fresh_temp_directory("aoti-cache");
  const auto first = aot_inductor_row(cache, "aoti-first.json");
  // A pass means run()'s outputs matched eager's before timing (verify_against_eager).
  ASSERT_EQ(first["status"], "pass") << first;
  EXPECT_EQ(first["counters"]["package_cached"], 0) << first;
  EXPECT_GT(first["compilation_latency_s"].get<double>(), 1.0)
      << "an inductor compile takes seconds";
  // The two convolutions' weights prepacked, besides the linear's
  // (python/export_aot_inductor.py: without its second torch.export only the
  // linear's is, 1 of 3, and each call reorders the convolutions' weights).
  std::vector<fs::path> packages;
  for (const auto& entry : fs::recursive_directory_iterator(cache)) {
    if (entry.path().extension() == ".pt2") packages.push_back(entry.path());
  }
  ASSERT_EQ(packages.size(), 1u);
  EXPECT_EQ(onednn_layout_constants(packages[0]), 3);

  const auto second = aot_inductor_row(cache, "aoti-second.json");
  ASSERT_EQ(second["status"], "pass") << second;
  EXPECT_EQ(second["counters"]["package_cached"], 1) << second;
  EXPECT_LT(second["compilation_latency_s"].get<double>(),
            first["compilation_latency_s"].get<double>());
}

// aot_inductor_bf16 compiles a package of its own whose arithmetic is
// bfloat16: its row says bf16 ran, and its cost against float32 is a finite
// SQNR (identical outputs would give inf: the package would be float32's).
TEST(AotInductor, Bf16PackageRunsInBfloat16AndShowsItsCost) {
  const auto cache = testing::fresh_temp_directory("aoti-bf16-cache");
  const auto row = aot_inductor_row(cache, "aoti-bf16.json", "aot_inductor_bf16");
  ASSERT_EQ(row["status"], "pass") << row;
  EXPECT_EQ(row["ran_precision"], "bf16") << row;
  ASSERT_TRUE(row["sqnr_db"].is_number()) << row;
  EXPECT_GT(row["sqnr_db"].get<double>(), 20.0) << row;
  EXPECT_LT(row["sqnr_db"].get<double>(), 80.0) << row;
}

#else

TEST(AotInductor, SaysWhichBuildItNeedsOnLibTorch1) {
  for (const char* backend : {"aot_inductor", "aot_inductor_bf16"}) {
    const auto row =
        aot_inductor_row(testing::fresh_temp_directory("aoti-cache"), "aoti.json", backend);
    EXPECT_EQ(row["status"], "unsupported") << row;
    EXPECT_NE(row["error"].get<std::string>().find("make build-torch2"), std::string::npos) << row;
  }
}

#endif

}  // namespace
}  // namespace tracebench
