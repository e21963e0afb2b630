// The launcher (orchestration/launcher.h): CPU lists, each allocator's environment,
// the allocator a process finds itself running with, and the options that
// cannot apply.

#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "orchestration/launcher.h"
#include "settings/sweep.h"
#include "usage_error_helpers.h"
#include "util/cpu_set.h"
#include "util/spawn.h"

namespace tracebench {
namespace {

TEST(CpuList, RangesAndNumbersBothWays) {
  EXPECT_EQ(cpu_list_text({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
  EXPECT_EQ(cpu_list_text({3}), "3");
  EXPECT_EQ(cpu_list_text({}), "");
  const auto allowed = allowed_cpus();
  ASSERT_FALSE(allowed.empty());
  EXPECT_EQ(parse_cpu_list(cpu_list_text(allowed)), allowed);
  const std::string first = std::to_string(allowed.front());
  EXPECT_EQ(parse_cpu_list(first + "," + first), std::vector<int>{allowed.front()});
}

TEST(CpuList, BadListsNameTheFix) {
  for (const char* bad : {"1-0", "zero", "0,", ""}) {
    EXPECT_EQ(testing::usage_error_of([&] { parse_cpu_list(bad); }),
              std::string("--cpus ") + bad +
                  " is not a CPU list; give CPU numbers and ascending ranges such as 0-3,6");
  }
  EXPECT_CONTAINS(
      testing::usage_error_of([] { parse_cpu_list("4000"); }),
      "CPU 4000 is not one this process may run on; choose from " + cpu_list_text(allowed_cpus()));
}

TEST(Launcher, DefaultThreadsFollowTheBinding) {
  const auto before = allowed_cpus();
  RunOptions options;
  options.cpus = std::to_string(before.front());
  bind_to_cpus(options);
  EXPECT_EQ(sweep_points(options).front().threads, 1);
  EXPECT_EQ(allowed_cpus(), std::vector<int>{before.front()});
  // Given threads stay as given, and what was asked for is kept as asked.
  RunOptions given;
  given.cpus = options.cpus;
  given.threads_sweep = {7};
  bind_to_cpus(given);
  EXPECT_EQ(sweep_points(given).front().threads, 7);
  EXPECT_EQ(given.threads_sweep, std::vector<int64_t>{7});
  // Unbound again for the tests after this one (--cpus may only narrow).
  cpu_set_t set;
  CPU_ZERO(&set);
  for (const int cpu : before) CPU_SET(cpu, &set);
  ASSERT_EQ(sched_setaffinity(0, sizeof set, &set), 0);
  EXPECT_EQ(allowed_cpus(), before);
}

TEST(Launcher, EachAllocatorsEnvironment) {
  RunOptions options;
  RunPoint point;
  EXPECT_TRUE(child_environment(options, point).empty());  // glibc, libgomp's wait policy
  point.allocator = "hugetlb";
  options.omp_wait = "active";
  const auto hugetlb = child_environment(options, point);
  ASSERT_EQ(hugetlb.size(), 2u);
  EXPECT_CONTAINS(hugetlb[0], "glibc.malloc.hugetlb=1");
  EXPECT_EQ(hugetlb[0].rfind("GLIBC_TUNABLES=", 0), 0u);
  EXPECT_EQ(hugetlb[1], "OMP_WAIT_POLICY=active");
  options.omp_wait = "";
  for (const char* allocator : {"jemalloc", "tcmalloc"}) {
    point.allocator = allocator;
    const auto environment = child_environment(options, point);
    ASSERT_EQ(environment.size(), 1u) << allocator;
    const std::string library = environment[0].substr(environment[0].rfind(':') + 1);
    EXPECT_EQ(environment[0].rfind("LD_PRELOAD=", 0), 0u);
    EXPECT_TRUE(std::filesystem::exists(library.substr(library.find('=') + 1))) << environment[0];
  }
}

// An allocator the environment already gives is not added to it again.
TEST(Launcher, AllocatorAlreadyInTheEnvironmentIsNotRepeated) {
  setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 1);
  RunPoint point;
  point.allocator = "hugetlb";
  const auto environment = child_environment(RunOptions{}, point);
  unsetenv("GLIBC_TUNABLES");
  EXPECT_EQ(environment, std::vector<std::string>{"GLIBC_TUNABLES=glibc.malloc.hugetlb=1"});
}

// A tunable that only starts like the allocator's (hugetlb=10 is another
// setting) is not it: the run's allocator is still glibc, and hugetlb is added.
TEST(Launcher, SimilarTunableIsNotTheAllocator) {
  setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=10", 1);
  const auto in_use = allocator_in_use();
  RunPoint point;
  point.allocator = "hugetlb";
  const auto environment = child_environment(RunOptions{}, point);
  unsetenv("GLIBC_TUNABLES");
  EXPECT_EQ(in_use, "glibc");
  EXPECT_EQ(environment, std::vector<std::string>{
                             "GLIBC_TUNABLES=glibc.malloc.hugetlb=10:glibc.malloc.hugetlb=1"});
}

// The child's environment is ours with the launcher's entries set over it.
TEST(Launcher, SpawnedProcessSeesTheEnvironment) {
  setenv("TRACEBENCH_LAUNCHER_TEST", "ours", 1);
  const auto child = spawn_process(
      {"sh", "-c", "echo \"$TRACEBENCH_LAUNCHER_TEST $OMP_WAIT_POLICY\""},
      Capture::kStdoutAndStderr,
      /*isolate=*/false, {"OMP_WAIT_POLICY=passive", "TRACEBENCH_LAUNCHER_TEST=set over"});
  std::string output;
  char buffer[256];
  for (ssize_t n; (n = read(child.output_fd, buffer, sizeof buffer)) > 0;) output.append(buffer, n);
  close(child.output_fd);
  EXPECT_EQ(output, "set over passive\n");
}

TEST(Launcher, ThisProcessRunsOnGlibc) {
  if (getenv("LD_PRELOAD") || getenv("GLIBC_TUNABLES")) GTEST_SKIP() << "started with a preload";
  EXPECT_EQ(allocator_in_use(), "glibc");
}

TEST(Launcher, OptionsThatCannotApplyNameTheFix) {
  RunOptions options;
  options.isolate = true;
  options.allocator_sweep = {"glibc", "mimalloc"};
  EXPECT_EQ(
      testing::usage_error_of([&] { validate_launcher(options); }),
      "--malloc mimalloc is not an allocator; choose from glibc, hugetlb, jemalloc, tcmalloc");
  options.allocator_sweep = {"jemalloc", "jemalloc"};
  EXPECT_EQ(testing::usage_error_of([&] { validate_sweep(options); }),
            "--malloc names jemalloc twice; give each value once");
  options.allocator_sweep = {"hugetlb"};
  options.isolate = false;
  EXPECT_CONTAINS(testing::usage_error_of([&] { validate_launcher(options); }),
                  "drop --no-isolation");
  options.allocator_sweep = {};
  options.omp_wait = "spin";
  options.isolate = true;
  EXPECT_EQ(testing::usage_error_of([&] { validate_launcher(options); }),
            "--omp-wait spin: choose passive or active");
  options.omp_wait = "";
  options.cooldown_s = -1;
  EXPECT_EQ(testing::usage_error_of([&] { validate_launcher(options); }),
            "--cooldown must be 0 seconds or more");
}

}  // namespace
}  // namespace tracebench
