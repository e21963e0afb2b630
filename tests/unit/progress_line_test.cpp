// The progress line on stderr ("[i/N] model  backends  elapsed"), written to a
// string stream: ProgressLine takes its stream and whether it is enabled, so
// the text is checked without a terminal.

#include <gtest/gtest.h>

#include <sstream>

#include "report/progress.h"

namespace tracebench {
namespace {

const std::string kEraseLine = "\r\033[K";

TEST(ProgressLine, ShowsModelPositionBackendsAndElapsedThenErases) {
  std::ostringstream err;
  {
    ProgressLine progress(err, 5, /*enabled=*/true);
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
    ProgressLine progress(err, 3, /*enabled=*/true);
    progress.clear();
  }
  EXPECT_EQ(err.str(), "");
}

TEST(ProgressLine, DisabledWritesNothing) {
  std::ostringstream err;
  {
    ProgressLine progress(err, 3, /*enabled=*/false);
    progress.start(0, "resnet18", "eager");
    progress.clear();
  }
  EXPECT_EQ(err.str(), "");
}

}  // namespace
}  // namespace tracebench
