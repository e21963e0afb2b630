// The progress line on stderr ("[i/N] model  backends  elapsed"), written to a
// string stream: ProgressLine takes its stream and whether it is a terminal,
// so the text is checked without one.

#include <gtest/gtest.h>

#include <sstream>

#include "report/progress.h"

namespace tracebench {
namespace {

const std::string kEraseLine = "\r\033[K";

TEST(ProgressLine, ShowsModelPositionBackendsAndElapsedThenErases) {
  std::ostringstream err;
  {
    ProgressLine progress(err, 5, /*terminal=*/true);
    progress.start(1, "resnet18", "eager,ts");
    progress.clear();
  }
  const std::string text = err.str();
  // start() draws at once; the model's clock was just reset, so it reads 0s.
  // The run's total is only checked for shape: the ticker thread may redraw.
  const std::string first_line = kEraseLine + "[2/5] resnet18  eager,ts  0s (total ";
  ASSERT_EQ(text.rfind(first_line, 0), 0u) << ::testing::PrintToString(text);
  const size_t total_end = text.find("s)", first_line.size());
  ASSERT_NE(total_end, std::string::npos) << ::testing::PrintToString(text);
  const std::string total = text.substr(first_line.size(), total_end - first_line.size());
  ASSERT_FALSE(total.empty());
  EXPECT_EQ(total.find_first_not_of("0123456789"), std::string::npos) << total;
  // clear() erases what was drawn and leaves the cursor at the line's start.
  EXPECT_EQ(text.substr(text.size() - kEraseLine.size()), kEraseLine);
}

TEST(ProgressLine, ClearWithoutStartWritesNothing) {
  std::ostringstream err;
  {
    ProgressLine progress(err, 3, /*terminal=*/true);
    progress.clear();
  }
  EXPECT_EQ(err.str(), "");
}

// Redirected (a log, a pipe, CI), each model's start is a plain line of its
// own, and nothing is erased: a first model that takes a minute is not silent.
TEST(ProgressLine, OffATerminalEachModelStartIsAPlainLine) {
  std::ostringstream err;
  {
    ProgressLine progress(err, 3, /*terminal=*/false);
    progress.start(0, "resnet18", "eager");
    progress.clear();
    progress.start(1, "alexnet", "eager");
  }
  EXPECT_EQ(err.str(), "[1/3] resnet18  eager\n[2/3] alexnet  eager\n");
}

// A run of one model says nothing off a terminal: its output names the model,
// and the seed's command prints its one line only.
TEST(ProgressLine, OffATerminalOneModelIsSilent) {
  std::ostringstream err;
  {
    ProgressLine progress(err, 1, /*terminal=*/false);
    progress.start(0, "LinearModel", "eager");
  }
  EXPECT_EQ(err.str(), "");
}

}  // namespace
}  // namespace tracebench
