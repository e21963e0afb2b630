#include "execution/execution_settings.h"

#include <gtest/gtest.h>
#include <torch/script.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "measure/environment.h"

namespace tracebench {
namespace {

/// Sets or clears OPENBLAS_NUM_THREADS for one test, restoring it after.
class OpenBlasVariable {
 public:
  explicit OpenBlasVariable(const char* value) {
    if (const char* old = std::getenv(kName)) saved_ = old;
    value ? setenv(kName, value, 1) : unsetenv(kName);
  }
  ~OpenBlasVariable() { saved_ ? setenv(kName, saved_->c_str(), 1) : unsetenv(kName); }

 private:
  static constexpr const char* kName = "OPENBLAS_NUM_THREADS";
  std::optional<std::string> saved_;
};

class ProcessSettings : public ::testing::Test {
 protected:
  void SetUp() override {
    if (collect_environment().openblas_threads == 0) {
      GTEST_SKIP() << "OpenBLAS is not the loaded BLAS (install libopenblas0-pthread)";
    }
  }
};

TEST_F(ProcessSettings, LeavesOpenBlasAloneWhenTheUserSetItsThreads) {
  OpenBlasVariable chosen("2");
  const int before = collect_environment().openblas_threads;
  RunPoint point;
  point.threads = torch::get_num_threads();
  apply_process_settings(RunOptions{}, point);
  EXPECT_EQ(collect_environment().openblas_threads, before);
}

TEST_F(ProcessSettings, SetsTorchThreadsAndOneOpenBlasThread) {
  OpenBlasVariable unset(nullptr);
  const int torch_before = torch::get_num_threads();
  RunPoint point;
  point.threads = 1;
  apply_process_settings(RunOptions{}, point);
  EXPECT_EQ(torch::get_num_threads(), 1);
  EXPECT_EQ(collect_environment().openblas_threads, 1);
  torch::set_num_threads(torch_before);
}

}  // namespace
}  // namespace tracebench
