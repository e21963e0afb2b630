#pragma once
// Whether a backend's outputs are "the same" as eager's: the dynamo runner's
// rule, with the evidence kept so a failure can be acted on.
//
// Per tensor: dtypes and shapes must match; then it passes if
//   allclose(actual, expected, rtol = atol = tol), or, failing that and when
//   an fp64 reference exists,
//   rmse(fp64, actual) <= multiplier * rmse(fp64, expected) + tol / 10
// i.e. the backend may be up to `multiplier` times as far from the fp64 truth
// as eager itself is. With `cosine`, a tensor passes when the cosine
// similarity of the flattened tensors is at least 0.99.

#include <ATen/core/ivalue.h>

#include <string>

namespace tracebench {

struct Tolerance {
  double tol = 1e-4;
  double rmse_multiplier = 2.0;
  bool cosine = false;
};

struct Comparison {
  bool same = true;
  /// Why not, in one line, naming the worst output: which tensor, max abs /
  /// rel error, and RMSE from fp64 of both sides when known.
  std::string detail;
};

/// Compares nested outputs (tensors inside tuples, lists and dicts; other
/// leaves must be equal). `fp64_reference` may be None.
Comparison compare_outputs(const c10::IValue& expected, const c10::IValue& actual,
                           const c10::IValue& fp64_reference, const Tolerance& tolerance);

/// Root-mean-square difference of two tensors, computed in float64.
double rmse(const at::Tensor& a, const at::Tensor& b);

}  // namespace tracebench
