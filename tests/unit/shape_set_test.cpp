// --shape-set: what it parses to, how the inputs are resized, and the seeded
// draws every backend shares (execution/shape_set.h).

#include "execution/shape_set.h"

#include <gtest/gtest.h>
#include <torch/script.h>

#include <set>

#include "usage_error_helpers.h"

namespace tracebench {
namespace {

TEST(ShapeSet, ParsesAnAxisAndItsSizes) {
  const auto batch = parse_shape_set("batch=1,2,4,8");
  EXPECT_EQ(batch.dim, 0);
  EXPECT_EQ(batch.sizes, (std::vector<int64_t>{1, 2, 4, 8}));
  EXPECT_EQ(batch.label(2), "batch=4");

  const auto sequence = parse_shape_set("dim1=32..512");
  EXPECT_EQ(sequence.dim, 1);
  EXPECT_EQ(sequence.sizes, (std::vector<int64_t>{32, 64, 128, 256, 512}));
  EXPECT_EQ(sequence.label(0), "dim1=32");

  EXPECT_EQ(parse_shape_set("dim2=7,3..6").sizes, (std::vector<int64_t>{7, 3, 6}));
  EXPECT_TRUE(parse_shape_set("").empty());
}

TEST(ShapeSet, BadTextNamesTheFix) {
  const std::string form = "; write batch=1,2,4,8 or dim1=32..512 (a doubling range)";
  EXPECT_EQ(testing::usage_error_of([] { parse_shape_set("1,2,4"); }),
            "--shape-set 1,2,4: the axis is missing; name batch or dimK (K: the dimension each "
            "input is resized along)" +
                form);
  EXPECT_EQ(testing::usage_error_of([] { parse_shape_set("seq=1,2"); }),
            "--shape-set seq=1,2: the axis is 'seq'; name batch or dimK (K: the dimension each "
            "input is resized along)" +
                form);
  EXPECT_EQ(testing::usage_error_of([] { parse_shape_set("batch=1,0"); }),
            "--shape-set batch=1,0: 0 is not a size of 1 or more" + form);
  EXPECT_EQ(testing::usage_error_of([] { parse_shape_set("batch="); }),
            "--shape-set batch=: an empty size is not a size of 1 or more" + form);
  EXPECT_EQ(testing::usage_error_of([] { parse_shape_set("dim1=32..100"); }),
            "--shape-set dim1=32..100: 32..100 does not double from its first size to its last; "
            "give a list instead" +
                form);
  EXPECT_EQ(testing::usage_error_of([] { parse_shape_set("batch=2,1..4"); }),
            "--shape-set batch=2,1..4 names size 2 twice; give each size once");
}

TEST(ShapeSet, InputsAreTiledOrCutAlongTheAxis) {
  const auto ids = torch::arange(6, torch::kLong).reshape({2, 3});  // batch 2, sequence 3
  const auto image = torch::randn({2, 3, 4});
  const std::vector<c10::IValue> inputs = {ids, c10::ivalue::Tuple::create({image}), 5};

  const auto longer = inputs_at_size(inputs, 1, 7);
  const auto tiled = longer[0].toTensor();
  EXPECT_EQ(tiled.sizes(), (std::vector<int64_t>{2, 7}));
  // The ids repeat, so they stay valid for an embedding of the same vocabulary.
  EXPECT_TRUE(torch::equal(tiled.narrow(1, 0, 3), ids));
  EXPECT_TRUE(torch::equal(tiled.narrow(1, 3, 3), ids));
  EXPECT_TRUE(torch::equal(tiled.narrow(1, 6, 1), ids.narrow(1, 0, 1)));
  // Nested tensors too; other values are kept.
  EXPECT_EQ(longer[1].toTupleRef().elements()[0].toTensor().sizes(),
            (std::vector<int64_t>{2, 7, 4}));
  EXPECT_EQ(longer[2].toInt(), 5);

  const auto one = inputs_at_size(inputs, 0, 1);
  EXPECT_TRUE(torch::equal(one[0].toTensor(), ids.narrow(0, 0, 1)));
  // A tensor without that dimension stays as it is.
  const std::vector<c10::IValue> flat = {torch::ones({3})};
  EXPECT_EQ(inputs_at_size(flat, 1, 9)[0].toTensor().sizes(), (std::vector<int64_t>{3}));
}

TEST(ShapeSet, DrawsAreSeededAndEachRoundTakesEveryShape) {
  ShapeDraws first(1337, 4), again(1337, 4), other(7, 4);
  std::vector<size_t> a, b, c;
  for (int i = 0; i < 64; ++i) {
    a.push_back(first.next());
    b.push_back(again.next());
    c.push_back(other.next());
  }
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  // Every round of 4 draws takes each shape once, in an order of its own.
  std::set<std::vector<size_t>> orders;
  for (size_t round = 0; round < a.size(); round += 4) {
    const std::vector<size_t> drawn(a.begin() + round, a.begin() + round + 4);
    EXPECT_EQ(std::set<size_t>(drawn.begin(), drawn.end()).size(), 4u) << "round " << round / 4;
    orders.insert(drawn);
  }
  EXPECT_GT(orders.size(), 4u);
}

}  // namespace
}  // namespace tracebench
