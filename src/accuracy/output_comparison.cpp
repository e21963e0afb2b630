#include "accuracy/output_comparison.h"

#include <torch/script.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace tracebench {

namespace {

struct Leaf {
  std::string path;
  c10::IValue value;
};

void flatten(const c10::IValue& value, const std::string& path, std::vector<Leaf>& leaves) {
  if (value.isTuple()) {
    const auto& elements = value.toTupleRef().elements();
    for (size_t i = 0; i < elements.size(); ++i) {
      flatten(elements[i], path + "[" + std::to_string(i) + "]", leaves);
    }
  } else if (value.isList()) {
    const auto list = value.toListRef();
    for (size_t i = 0; i < list.size(); ++i) {
      flatten(list[i], path + "[" + std::to_string(i) + "]", leaves);
    }
  } else if (value.isGenericDict()) {
    for (const auto& entry : value.toGenericDict()) {
      flatten(entry.value(),
              path + "[" + entry.key().tagKind() + ":" +
                  (entry.key().isString() ? entry.key().toStringRef() : "?") + "]",
              leaves);
    }
  } else {
    leaves.push_back({path, value});
  }
}

std::string format(const char* pattern, double a, double b = 0, double c = 0, double d = 0) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, a, b, c, d);
  return buffer;
}

// Why one tensor fails ("" when it passes), and how badly: failures are
// ranked by max abs error, structural ones first.
struct TensorVerdict {
  std::string reason;
  double severity = INFINITY;
};

TensorVerdict compare_tensor(const at::Tensor& expected, const at::Tensor& actual,
                             const at::Tensor* fp64, const Tolerance& tolerance) {
  if (expected.scalar_type() != actual.scalar_type()) {
    return {std::string("dtype ") + c10::toString(actual.scalar_type()) + " instead of " +
            c10::toString(expected.scalar_type())};
  }
  if (expected.sizes() != actual.sizes()) return {"shape differs"};
  if (!expected.is_floating_point()) {
    return {torch::equal(expected, actual) ? "" : "integer values differ"};
  }
  const auto e = expected.to(torch::kFloat64), a = actual.to(torch::kFloat64);
  // Identical values (NaN where eager has NaN too) are the same under any rule;
  // the cosine of all-zero or NaN outputs would say otherwise.
  if (torch::allclose(a, e, 0, 0, /*equal_nan=*/true)) return {};
  if (tolerance.cosine && e.abs().max().item<double>() <= tolerance.tol) {
    const double max_abs = (a - e).abs().max().item<double>();
    return {
        max_abs <= tolerance.tol ? "" : format("max abs error %.3g at the noise floor", max_abs),
        max_abs};
  }
  if (tolerance.cosine) {
    const double cosine =
        torch::cosine_similarity(e.flatten(), a.flatten(), 0, 1e-12).item<double>();
    return {cosine >= tolerance.min_cosine
                ? ""
                : format("cosine similarity %.4f < %.2f", cosine, tolerance.min_cosine),
            1 - cosine};
  }
  if (torch::allclose(a, e, tolerance.tol, tolerance.tol, /*equal_nan=*/true)) return {};

  const auto abs_error = (a - e).abs();
  const double max_abs = abs_error.max().item<double>();
  const double max_rel = (abs_error / e.abs().clamp_min(1e-12)).max().item<double>();
  std::string detail = format("max abs error %.3g, max rel error %.3g", max_abs, max_rel);
  bool within = false;
  if (fp64) {
    const double eager_error = rmse(*fp64, expected), backend_error = rmse(*fp64, actual);
    detail += format("; rmse from fp64: backend %.3g, eager %.3g", backend_error, eager_error);
    if (std::isnan(eager_error) && std::isnan(backend_error)) return {};
    within = backend_error <= tolerance.rmse_multiplier * eager_error + tolerance.tol / 10;
  } else {
    detail += "; no fp64 reference";
  }
  if (tolerance.relative_rmse > 0) {
    // Against fp64 where there is one, else against eager's float32 output.
    const auto truth = fp64 ? fp64->to(torch::kFloat64) : e;
    const double error = rmse(truth, actual);
    const double scale = truth.pow(2).mean().sqrt().item<double>();
    detail += format("; rmse %.3g of the output's rms (rule: %.3g)", error / scale,
                     tolerance.relative_rmse);
    within = within || error <= tolerance.relative_rmse * scale;
  }
  return {within ? "" : detail, max_abs};
}

}  // namespace

std::string noise_floor_output(const c10::IValue& outputs, double tol,
                               const std::vector<std::string>& leaf_names) {
  std::vector<Leaf> leaves;
  flatten(outputs, "output", leaves);
  for (size_t i = 0; i < leaves.size(); ++i) {
    if (!leaves[i].value.isTensor()) continue;
    const auto& tensor = leaves[i].value.toTensor();
    if (!tensor.defined() || !tensor.is_floating_point() || tensor.numel() == 0) continue;
    if (tensor.abs().max().item<double>() > tol) continue;
    return leaf_names.size() == leaves.size() ? leaf_names[i] : leaves[i].path;
  }
  return "";
}

double rmse(const at::Tensor& a, const at::Tensor& b) {
  const auto difference = a.to(torch::kFloat64) - b.to(torch::kFloat64);
  return std::sqrt(difference.pow(2).mean().item<double>());
}

Comparison compare_outputs(const c10::IValue& expected, const c10::IValue& actual,
                           const c10::IValue& fp64_reference, const Tolerance& tolerance,
                           const std::vector<std::string>& leaf_names) {
  std::vector<Leaf> want, got, truth;
  flatten(expected, "output", want);
  if (leaf_names.size() == want.size()) {
    for (size_t i = 0; i < want.size(); ++i) want[i].path = leaf_names[i];
  }
  flatten(actual, "output", got);
  if (!fp64_reference.isNone()) flatten(fp64_reference, "output", truth);
  if (want.size() != got.size()) {
    return {false, "output structure differs: " + std::to_string(got.size()) +
                       " leaves instead of " + std::to_string(want.size())};
  }
  Comparison result;
  double worst = -1;
  for (size_t i = 0; i < want.size(); ++i) {
    const auto& w = want[i].value;
    const auto& g = got[i].value;
    TensorVerdict verdict;
    if (w.isTensor() != g.isTensor()) {
      verdict.reason = "a tensor on one side only";
    } else if (w.isTensor()) {
      const bool has_truth = truth.size() == want.size() && truth[i].value.isTensor();
      verdict = compare_tensor(w.toTensor(), g.toTensor(),
                               has_truth ? &truth[i].value.toTensor() : nullptr, tolerance);
    } else if (!(w == g)) {
      verdict.reason = "values differ";
    }
    if (verdict.reason.empty()) continue;
    result.same = false;
    if (verdict.severity > worst || result.detail.empty()) {  // severity may be NaN
      worst = verdict.severity;
      result.detail = want[i].path + ": " + verdict.reason;
    }
  }
  return result;
}

}  // namespace tracebench
