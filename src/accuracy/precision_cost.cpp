#include "accuracy/precision_cost.h"

#include <ATen/ATen.h>

#include <cmath>
#include <limits>
#include <set>

#include "util/not_a_number.h"
#include "util/tensor_tree.h"

namespace tracebench {

namespace {

std::vector<at::Tensor> floating_leaves(const c10::IValue& outputs) {
  std::vector<at::Tensor> leaves;
  for_each_tensor(outputs, [&leaves](const at::Tensor& tensor) {
    if (tensor.is_floating_point()) leaves.push_back(tensor);
  });
  return leaves;
}

// The first floating-point output when it is shaped [batch, classes], as a
// classifier's logits or probabilities are; undefined otherwise.
at::Tensor classifier_output(const c10::IValue& outputs) {
  const auto leaves = floating_leaves(outputs);
  if (leaves.empty() || leaves.front().dim() != 2 || leaves.front().size(1) < 2) return {};
  return leaves.front();
}

}  // namespace

double sqnr_db(const std::vector<c10::IValue>& reference, const std::vector<c10::IValue>& actual) {
  if (reference.size() != actual.size()) return kNaN;
  double signal = 0;
  double noise = 0;
  bool any = false;
  for (size_t call = 0; call < reference.size(); ++call) {
    const auto expected = floating_leaves(reference[call]);
    const auto got = floating_leaves(actual[call]);
    if (expected.size() != got.size()) return kNaN;
    for (size_t i = 0; i < expected.size(); ++i) {
      if (expected[i].sizes() != got[i].sizes()) return kNaN;
      // In float64: a bf16 output's error is far above float32's rounding,
      // but the sums of squares of a large output are not.
      const auto ref = expected[i].to(at::kDouble);
      signal += ref.pow(2).sum().item<double>();
      noise += (ref - got[i].to(at::kDouble)).pow(2).sum().item<double>();
      any = true;
    }
  }
  if (!any || signal == 0 || std::isnan(signal) || std::isnan(noise)) return kNaN;
  if (noise == 0) return std::numeric_limits<double>::infinity();
  return 10 * std::log10(signal / noise);  // = 20 log10 of the norms' ratio
}

Top1Agreement top1_agreement(const std::vector<c10::IValue>& reference,
                             const std::vector<c10::IValue>& actual) {
  int64_t predictions = 0;
  int64_t agreeing = 0;
  std::set<int64_t> classes;
  for (size_t call = 0; call < reference.size() && call < actual.size(); ++call) {
    const auto expected = classifier_output(reference[call]);
    const auto got = classifier_output(actual[call]);
    if (!expected.defined() || !got.defined() || expected.sizes() != got.sizes()) {
      return {kNaN, "no top-1: the first output is not shaped [batch, classes]"};
    }
    const auto expected_class = expected.argmax(1);
    const auto agree = expected_class.eq(got.argmax(1));
    predictions += expected_class.numel();
    agreeing += agree.sum().item<int64_t>();
    const auto* first = expected_class.data_ptr<int64_t>();
    classes.insert(first, first + expected_class.numel());
  }
  if (static_cast<int64_t>(classes.size()) < kTop1MinimumClasses) {
    return {kNaN, "no top-1: float32's predictions over " + std::to_string(predictions) +
                      " inputs take " + std::to_string(classes.size()) + " class" +
                      (classes.size() == 1 ? "" : "es") + ", fewer than " +
                      std::to_string(kTop1MinimumClasses) +
                      " (random weights or alike inputs? --weights and --inputs give real ones)"};
  }
  return {100.0 * static_cast<double>(agreeing) / static_cast<double>(predictions), ""};
}

}  // namespace tracebench
