#include "execution/shape_set.h"

#include <ATen/ATen.h>

#include <algorithm>

#include "tracebench/error.h"
#include "util/tensor_tree.h"
#include "util/text.h"

namespace tracebench {

namespace {

constexpr const char* kForm = "; write batch=1,2,4,8 or dim1=32..512 (a doubling range)";

int64_t positive_size(const std::string& text, const std::string& whole) {
  size_t used = 0;
  int64_t value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || value < 1) {
    throw UsageError("--shape-set " + whole + ": " + (text.empty() ? "an empty size" : text) +
                     " is not a size of 1 or more" + kForm);
  }
  return value;
}

// "32..512": 32, 64, ..., 512.
std::vector<int64_t> doubling_range(const std::string& item, size_t dots,
                                    const std::string& whole) {
  const int64_t first = positive_size(item.substr(0, dots), whole);
  const int64_t last = positive_size(item.substr(dots + 2), whole);
  std::vector<int64_t> sizes;
  for (int64_t size = first; size <= last; size *= 2) sizes.push_back(size);
  if (sizes.empty() || sizes.back() != last) {
    throw UsageError("--shape-set " + whole + ": " + item +
                     " does not double from its first size to its last; give a list instead" +
                     kForm);
  }
  return sizes;
}

int64_t axis_dim(const std::string& axis, const std::string& whole) {
  if (axis == "batch") return 0;
  if (axis.rfind("dim", 0) == 0 && axis.size() > 3 &&
      std::all_of(axis.begin() + 3, axis.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::stoll(axis.substr(3));
  }
  throw UsageError("--shape-set " + whole + ": the axis is " +
                   (axis.empty() ? std::string("missing") : "'" + axis + "'") +
                   "; name batch or dimK (K: the dimension each input is resized along)" + kForm);
}

}  // namespace

std::string ShapeSet::label(size_t index) const {
  return (dim == 0 ? std::string("batch") : "dim" + std::to_string(dim)) + "=" +
         std::to_string(sizes.at(index));
}

std::string ShapeSet::failed_at(size_t index) const {
  return "at " + label(index) + " of --shape-set: ";
}

ShapeSet parse_shape_set(const std::string& text) {
  ShapeSet set;
  if (text.empty()) return set;
  const auto equals = text.find('=');
  set.dim = axis_dim(equals == std::string::npos ? "" : text.substr(0, equals), text);
  const std::string sizes = text.substr(equals + 1);
  if (sizes.empty()) positive_size(sizes, text);  // names the missing size
  for (const auto& item : split(sizes, ',')) {
    const auto dots = item.find("..");
    const auto sizes = dots == std::string::npos ? std::vector<int64_t>{positive_size(item, text)}
                                                 : doubling_range(item, dots, text);
    for (const int64_t size : sizes) {
      if (std::find(set.sizes.begin(), set.sizes.end(), size) != set.sizes.end()) {
        throw UsageError("--shape-set " + text + " names size " + std::to_string(size) +
                         " twice; give each size once");
      }
      set.sizes.push_back(size);
    }
  }
  return set;
}

std::vector<c10::IValue> inputs_at_size(const std::vector<c10::IValue>& inputs, int64_t dim,
                                        int64_t size) {
  std::vector<c10::IValue> resized;
  for (const auto& input : inputs) {
    resized.push_back(map_tensors(input, [dim, size](const at::Tensor& tensor) -> at::Tensor {
      if (tensor.is_sparse() || tensor.dim() <= dim || tensor.size(dim) == 0) return tensor;
      const int64_t current = tensor.size(dim);
      std::vector<int64_t> repeats(static_cast<size_t>(tensor.dim()), 1);
      repeats[static_cast<size_t>(dim)] = (size + current - 1) / current;
      return tensor.repeat(repeats).narrow(dim, 0, size).contiguous();
    }));
  }
  return resized;
}

std::vector<std::vector<c10::IValue>> inputs_at_each_size(const std::vector<c10::IValue>& inputs,
                                                          const ShapeSet& shapes) {
  std::vector<std::vector<c10::IValue>> sets;
  for (const int64_t size : shapes.sizes) sets.push_back(inputs_at_size(inputs, shapes.dim, size));
  return sets;
}

ShapeDraws::ShapeDraws(uint64_t seed, size_t count) : state_(seed), round_(count) {}

// splitmix64: the same sequence for a seed on every platform and library.
uint64_t ShapeDraws::random() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

size_t ShapeDraws::next() {
  if (draws_left_ == 0) {  // a new round: every shape, Fisher-Yates shuffled
    for (size_t i = 0; i < round_.size(); ++i) round_[i] = i;
    for (size_t i = round_.size(); i > 1; --i) std::swap(round_[i - 1], round_[random() % i]);
    draws_left_ = round_.size();
  }
  return round_[--draws_left_];
}

}  // namespace tracebench
