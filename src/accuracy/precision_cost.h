#pragma once
// What running at a lower precision (bf16, int8) costs in the outputs,
// measured against float32 eager over an evaluation set: the two figures a
// reduced-precision row carries beside its speed (docs/accuracy.md).

#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

namespace tracebench {

/// Signal-to-quantization-noise ratio of `actual` against `reference`, in dB:
/// 20 log10(||ref|| / ||ref - actual||) over every floating-point output
/// tensor of every call, as ONNX Runtime's and torchao's quantization
/// debuggers compute it. +infinity when the outputs are identical; NaN when
/// there is no floating-point output, the reference is all zeros, or the two
/// differ in structure or shape.
double sqnr_db(const std::vector<c10::IValue>& reference, const std::vector<c10::IValue>& actual);

/// The fewest distinct classes float32's top-1 predictions must take over the
/// evaluation set before an agreement figure means anything: a model whose
/// predictions all fall on one class agrees 100% with any backend.
inline constexpr int64_t kTop1MinimumClasses = 10;

struct Top1Agreement {
  double percent;  // NaN when not measured; then `why_not` says why
  std::string why_not;
};

/// The share of predictions (the argmax of the first floating-point output,
/// shaped [batch, classes]) where `actual` picks float32's class, over every
/// call of the set, in percent. Not measured when no output is shaped like a
/// classifier's or float32's predictions take fewer than
/// kTop1MinimumClasses classes.
Top1Agreement top1_agreement(const std::vector<c10::IValue>& reference,
                             const std::vector<c10::IValue>& actual);

}  // namespace tracebench
