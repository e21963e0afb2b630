#include "runner/partition.h"

#include <gtest/gtest.h>

#include <string>

namespace tracebench {
namespace {

struct Named {
  std::string name;
};

std::vector<std::string> names(const std::vector<Named>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) out.push_back(item.name);
  return out;
}

const std::vector<Named> kTen = {{"j"}, {"a"}, {"c"}, {"b"}, {"e"},
                                 {"d"}, {"g"}, {"f"}, {"i"}, {"h"}};

TEST(Partition, SortedContiguousChunksLastTakesRemainder) {
  EXPECT_EQ(names(partition_models(kTen, 3, 0)), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(names(partition_models(kTen, 3, 1)), (std::vector<std::string>{"d", "e", "f"}));
  EXPECT_EQ(names(partition_models(kTen, 3, 2)), (std::vector<std::string>{"g", "h", "i", "j"}));
  EXPECT_EQ(partition_models(kTen, 1, 0).size(), 10u);
}

TEST(Partition, EveryModelExactlyOnce) {
  for (int total = 1; total <= 12; ++total) {
    size_t count = 0;
    for (int id = 0; id < total; ++id) count += partition_models(kTen, total, id).size();
    EXPECT_EQ(count, 10u) << total;
  }
}

TEST(Partition, RangeErrors) {
  EXPECT_THROW(partition_models(kTen, 0, 0), UsageError);
  EXPECT_THROW(partition_models(kTen, 3, 3), UsageError);
  EXPECT_THROW(partition_models(kTen, 3, -1), UsageError);
}

}  // namespace
}  // namespace tracebench
