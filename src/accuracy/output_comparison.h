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
// similarity of the flattened tensors is at least 0.99, except a tensor at the
// noise floor (every |value| <= tol, as random weights can leave outputs of
// ~1e-14): its direction is rounding noise, so it passes when allclose with
// atol = tol, as in the dynamo runner's same().

#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

namespace tracebench {

struct Tolerance {
  double tol = 1e-4;
  double rmse_multiplier = 2.0;
  bool cosine = false;
  /// Under the cosine rule, the least cosine similarity that passes.
  double min_cosine = 0.99;
  /// > 0: an output also passes when its rmse from the fp64 reference, over
  /// the rms of that reference, is within this. For backends that lower
  /// precision on purpose: held to the output's own scale, since eager's
  /// float32 error is no yardstick for bfloat16 or int8 arithmetic.
  double relative_rmse = 0;
};

struct Comparison {
  bool same = true;
  /// Why not, in one line, naming the worst output: which tensor, max abs /
  /// rel error, and RMSE from fp64 of both sides when known.
  std::string detail;
};

/// Compares nested outputs (tensors inside tuples, lists and dicts; other
/// leaves must be equal). `fp64_reference` may be None. `leaf_names`, when it
/// has one name per leaf (Model::output_names), names the leaves in messages.
Comparison compare_outputs(const c10::IValue& expected, const c10::IValue& actual,
                           const c10::IValue& fp64_reference, const Tolerance& tolerance,
                           const std::vector<std::string>& leaf_names = {});

/// The path ("output[1]") of the first floating-point output tensor whose
/// values all lie within `tol` of zero, or "" if none does; named from
/// `leaf_names` as in compare_outputs.
std::string noise_floor_output(const c10::IValue& outputs, double tol,
                               const std::vector<std::string>& leaf_names = {});

/// Root-mean-square difference of two tensors, computed in float64.
double rmse(const at::Tensor& a, const at::Tensor& b);

}  // namespace tracebench
