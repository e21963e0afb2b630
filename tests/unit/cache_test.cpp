// The model cache that ctest's parallel tests share (tests/CMakeLists.txt):
// two processes that export the same model write its manifest at the same
// time. CI failed once on a shared temporary name: one writer renamed the
// other's half-written manifest, and the second rename threw "No such file
// or directory", which the run reported as model_fail_to_load.

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <thread>
#include <vector>

#include "test_paths.h"
#include "util/cache.h"
#include "util/files.h"

namespace tracebench {
namespace {

TEST(ModelCache, PartialFilesBesideOneTargetAreDistinct) {
  const std::filesystem::path target = "/cache/model.pt.deps";
  std::set<std::filesystem::path> names;
  for (int i = 0; i < 100; ++i) {
    const auto partial = partial_path_beside(target);
    EXPECT_EQ(partial.parent_path(), target.parent_path());
    EXPECT_EQ(partial.string().rfind(target.string() + ".", 0), 0u) << partial;
    names.insert(partial);
  }
  EXPECT_EQ(names.size(), 100u);
}

// Seen to fail with the shared name ("model.pt.deps.tmp"): rename threw in
// some of the writers on the first run.
TEST(ModelCache, WritersOfOneManifestAtOnceAllSucceed) {
  const auto dir = testing::process_temp_path("cache_race");
  std::filesystem::create_directories(dir);
  const auto artifact = dir / "model.pt";
  const auto source = dir / "model.py";
  std::ofstream(artifact) << "archive";
  std::ofstream(source) << "class Model: pass\n";

  constexpr int kWriters = 8, kWritesEach = 40;
  std::vector<std::thread> writers;
  std::vector<int> failures(kWriters, 0);
  for (int writer = 0; writer < kWriters; ++writer) {
    writers.emplace_back([&, writer] {
      for (int i = 0; i < kWritesEach; ++i) {
        try {
          write_dependency_manifest(artifact, {source});
        } catch (const std::exception&) {
          ++failures[writer];
        }
      }
    });
  }
  for (auto& writer : writers) writer.join();
  for (int writer = 0; writer < kWriters; ++writer) EXPECT_EQ(failures[writer], 0) << writer;
  EXPECT_TRUE(cached_artifact_is_current(artifact));
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    EXPECT_NE(entry.path().extension(), ".tmp") << entry.path() << " left behind";
  }
}

}  // namespace
}  // namespace tracebench
