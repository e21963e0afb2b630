#include "measure/environment.h"

#include <gtest/gtest.h>
#include <torch/version.h>

namespace tracebench {
namespace {

TEST(Environment, BlasLibrariesFromMaps) {
  const std::string maps =
      "7f00-7f01 r--p 00000000 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
      "7f02-7f03 r-xp 00000000 08:01 2 /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3\n"
      "7f04-7f05 r--p 00001000 08:01 2 /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3\n"
      "7f06-7f07 r-xp 00000000 08:01 3 /usr/lib/x86_64-linux-gnu/libopenblasp-r0.3.21.so\n"
      "7f08-7f09 rw-p 00000000 00:00 0 [heap]\n"
      "7f0a-7f0b r--p 00000000 08:01 4 /home/blas/notes.txt\n";
  EXPECT_EQ(blas_libraries_in_maps(maps),
            (std::vector<std::string>{"/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3",
                                      "/usr/lib/x86_64-linux-gnu/libopenblasp-r0.3.21.so"}));
  EXPECT_TRUE(blas_libraries_in_maps("").empty());
}

TEST(Environment, KernelCpuFlagsFromCpuinfo) {
  const std::string cpuinfo =
      "processor\t: 0\nflags\t\t: fpu sse2 avx2 fma avx512f avx512_bf16 amx_tile\n"
      "processor\t: 1\nflags\t\t: fpu avx512_vnni\n";
  EXPECT_EQ(kernel_cpu_flags(cpuinfo),
            (std::vector<std::string>{"avx2", "fma", "avx512f", "avx512_bf16", "amx_tile"}));
  EXPECT_TRUE(kernel_cpu_flags("flags\t: fpu sse2\n").empty());  // no AVX at all
  EXPECT_TRUE(kernel_cpu_flags("").empty());
}

TEST(Environment, Int8DotProductNeedsVnniOrAmx) {
  EXPECT_TRUE(has_native_int8_dot({"avx2", "avx512f", "avx512_vnni"}));
  EXPECT_TRUE(has_native_int8_dot({"avx2", "avx_vnni"}));
  EXPECT_TRUE(has_native_int8_dot({"amx_tile", "amx_int8"}));
  EXPECT_FALSE(has_native_int8_dot({"avx2", "fma"}));  // an AVX2-only EPYC
  EXPECT_FALSE(has_native_int8_dot({}));
}

TEST(Environment, CollectsTheEssentials) {
  const auto env = collect_environment();
  EXPECT_GT(env.logical_cores, 0);
  EXPECT_GT(env.torch_threads, 0);
  // The LibTorch this binary runs on: the one it was built against.
  EXPECT_EQ(env.libtorch_version.rfind(std::to_string(TORCH_VERSION_MAJOR) + ".", 0), 0u)
      << env.libtorch_version;
  EXPECT_NE(env.libtorch_config.find("PyTorch built with"), std::string::npos);
  EXPECT_FALSE(env.compiler.empty());
  EXPECT_FALSE(env.build_type.empty());
  EXPECT_EQ(env.time_utc.size(), 20u) << env.time_utc;  // 2024-01-02T03:04:05Z
  EXPECT_FALSE(env.load_average.empty());
}

}  // namespace
}  // namespace tracebench
