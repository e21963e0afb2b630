// What the parent reads back from a model's process (orchestration/isolation.h):
// rows survive, a line cut short by a death is left to the death's row, and
// any other line it cannot read is named, never dropped.

#include <gtest/gtest.h>

#include <regex>

#include "orchestration/isolation.h"
#include "report/row_json.h"

namespace tracebench {
namespace {

ResultRow row_for(const std::string& backend) {
  ResultRow row;
  row.model = "resnet18";
  row.backend = backend;
  row.status = "pass";
  return row;
}

TEST(ChildRows, RowsComeBackByBackend) {
  const auto parsed = parse_child_rows(row_to_json_line(row_for("ts")) + "\n" +
                                       row_to_json_line(row_for("ofi")) + "\n");
  ASSERT_EQ(parsed.rows.size(), 2u);
  EXPECT_EQ(parsed.rows.at("ofi").status, "pass");
  EXPECT_TRUE(parsed.unreadable.empty());
}

TEST(ChildRows, ALastLineCutShortIsLeftToTheDeath) {
  const std::string whole = row_to_json_line(row_for("ts")) + "\n";
  const std::string cut = row_to_json_line(row_for("ofi")).substr(0, 30);
  const auto parsed = parse_child_rows(whole + cut);
  EXPECT_EQ(parsed.rows.size(), 1u);
  EXPECT_TRUE(parsed.unreadable.empty());
}

TEST(ChildRows, ARowOfAnotherSchemaIsNamedWithItsBackend) {
  // A field of the wrong type: what a parent and a child built from
  // different row schemas would exchange.
  const std::string line = std::regex_replace(row_to_json_line(row_for("xnnpack")),
                                              std::regex(R"("status":"pass")"), R"("status":7)");
  const auto parsed = parse_child_rows(line + "\n" + row_to_json_line(row_for("ts")) + "\n");
  EXPECT_EQ(parsed.rows.size(), 1u);
  ASSERT_EQ(parsed.unreadable.size(), 1u);
  EXPECT_EQ(parsed.unreadable[0].first, "xnnpack");
  EXPECT_NE(parsed.unreadable[0].second.find("cannot read"), std::string::npos)
      << parsed.unreadable[0].second;
}

TEST(ChildRows, ALineThatIsNotJsonIsNamedToo) {
  const auto parsed =
      parse_child_rows("oops, not a row\n" + row_to_json_line(row_for("ts")) + "\n");
  EXPECT_EQ(parsed.rows.size(), 1u);
  ASSERT_EQ(parsed.unreadable.size(), 1u);
  EXPECT_EQ(parsed.unreadable[0].first, "");
  EXPECT_NE(parsed.unreadable[0].second.find("oops, not a row"), std::string::npos);
}

}  // namespace
}  // namespace tracebench
