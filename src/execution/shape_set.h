#pragma once
// --shape-set: the input shapes a served model sees, one per call, rather
// than the one shape of its example inputs (PyTorch #88904's other half:
// tracing once wins while every call has the same shapes). The set is one
// axis of the inputs and the sizes it takes; each timed sample draws one,
// seeded, so every backend sees the same draws, and a backend that
// specializes on shapes pays for its retraces inside the timed samples.

#include <ATen/core/ivalue.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tracebench {

struct ShapeSet {
  /// The dimension every tensor input of more dimensions is resized along:
  /// 0 for "batch", k for "dimK".
  int64_t dim = 0;
  /// The sizes it takes, each once, as given.
  std::vector<int64_t> sizes;

  bool empty() const { return sizes.empty(); }
  /// "batch=4" or "dim1=128": what names the shape in rows and reports.
  std::string label(size_t index) const;
  /// What a row's error starts with when the backend failed at that shape:
  /// "at batch=4 of --shape-set: ".
  std::string failed_at(size_t index) const;
};

/// Parses --shape-set's text: "batch=1,2,4,8" or "dim1=32,64,128", where a
/// size may be a doubling range ("dim1=32..512" is 32,64,...,512). "" is the
/// empty set. Throws UsageError naming the fix for anything else.
ShapeSet parse_shape_set(const std::string& text);

/// `inputs` with every tensor of more than `dim` dimensions, nested ones
/// included, tiled or cut along `dim` to `size`: integer inputs stay valid
/// indices and masks, floats keep their distribution. Others are kept.
std::vector<c10::IValue> inputs_at_size(const std::vector<c10::IValue>& inputs, int64_t dim,
                                        int64_t size);

/// One input set per size of `shapes`, in its order (inputs_at_size).
std::vector<std::vector<c10::IValue>> inputs_at_each_size(const std::vector<c10::IValue>& inputs,
                                                          const ShapeSet& shapes);

/// Draws, for each repetition, which shape of `count` its samples take:
/// seeded by the run's --seed, so every backend and every run with that seed
/// draws the same sequence. Each round of `count` repetitions takes every
/// shape once, in a shuffled order: every shape gets its share of the samples
/// (independent draws gave one shape 3 of 40 and another 16, and a median of
/// 3 samples may be a retrace), and no backend can predict the next shape.
class ShapeDraws {
 public:
  ShapeDraws(uint64_t seed, size_t count);
  size_t next();

 private:
  uint64_t random();  // splitmix64
  uint64_t state_;
  std::vector<size_t> round_;  // this round's shapes, drawn from the back
  size_t draws_left_ = 0;
};

}  // namespace tracebench
