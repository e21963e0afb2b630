#include "measure/compute_peak.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>

namespace tracebench {

namespace {

// Sizes large enough to be compute-bound on a CPU core (a 3x3 convolution of
// 64 channels at 56x56, ResNet's first stage, and a 512x1024x1024 product),
// small enough that the whole probe stays near a second.
constexpr int64_t kBatch = 4, kChannels = 64, kSide = 56;
constexpr int64_t kRows = 512, kInner = 1024, kColumns = 1024;
constexpr double kConvFlops = 2.0 * kBatch * kChannels * kSide * kSide * kChannels * 3 * 3;
constexpr double kMmFlops = 2.0 * kRows * kInner * kColumns;
constexpr int kWarmupCalls = 2, kTimedCalls = 5;
// Once a kernel has taken this long, the probe makes no more calls of it than
// one warm-up and one timed call. bfloat16 where the CPU has no AVX-512 BF16
// takes LibTorch's reference paths: on a 2-vCPU AVX2-only EPYC (2026-12-06)
// a bf16 convolution took 0.83 s a call and a product 0.48 s, and seven calls
// of each made every performance run start 9 s late.
constexpr double kKernelBudgetS = 0.25;

// GFLOP/s of the fastest of a few calls: a peak is what the machine can do,
// so the best call, not a typical one, is the figure.
double best_gflops(double flops, const std::function<void()>& call) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto within_budget = [&](int calls_made) {
    return calls_made == 0 ||
           std::chrono::duration<double>(Clock::now() - start).count() < kKernelBudgetS;
  };
  for (int i = 0; i < kWarmupCalls && within_budget(i); ++i) call();
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < kTimedCalls && within_budget(i); ++i) {
    const auto call_start = Clock::now();
    call();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - call_start).count());
  }
  return flops / best / 1e9;
}

// A registered op called by name, as a graph calls it; its first result.
// Throws c10::Error where this LibTorch lacks the op or what it needs.
c10::IValue call_op(const char* op, const char* overload, std::vector<c10::IValue> arguments) {
  c10::Dispatcher::singleton().findSchemaOrThrow(op, overload).callBoxed(&arguments);
  return arguments.at(0);
}

double op_gflops(const char* op, const char* overload, double flops,
                 const std::vector<c10::IValue>& arguments) {
  const auto handle = c10::Dispatcher::singleton().findSchemaOrThrow(op, overload);
  return best_gflops(flops, [&] {
    auto call = arguments;
    handle.callBoxed(&call);
  });
}

// linear(x, W) computes x W^T: a prepacked linear's weight is the product's
// transposed right side.
at::Tensor linear_weight(const at::Tensor& right) { return right.t().contiguous(); }

// XNNPACK's convolution and linear through the ops the xnnpack backend's
// graphs call: absent where LibTorch has no XNNPACK (the prepack then throws).
void probe_xnnpack(std::map<std::string, double>& peaks, const at::Tensor& image,
                   const at::Tensor& filters, const at::Tensor& left, const at::Tensor& right) {
  const std::vector<int64_t> ones = {1, 1};
  const auto conv =
      call_op("prepacked::conv2d_clamp_prepack", "",
              {filters, c10::IValue(), ones, ones, ones, int64_t{1}, c10::IValue(), c10::IValue()});
  peaks["xnnpack_conv2d_fp32"] =
      op_gflops("prepacked::conv2d_clamp_run", "", kConvFlops,
                {image.contiguous(at::MemoryFormat::ChannelsLast), conv});
  const auto linear = call_op("prepacked::linear_clamp_prepack", "",
                              {linear_weight(right), c10::IValue(), c10::IValue(), c10::IValue()});
  peaks["xnnpack_linear_fp32"] =
      op_gflops("prepacked::linear_clamp_run", "", kMmFlops, {left, linear});
}

// Drops LibTorch's warnings. PyTorch 2.x warns once per process that quantized
// tensors are deprecated (torchao took them over): the probe's own are private
// to it, and the warning would open every run's output (on 2.15, 2026-12-07).
class SilentWarnings final : public c10::WarningHandler {
 public:
#if TORCH_VERSION_MAJOR >= 2
  void process(const c10::Warning&) override {}
#else
  void process(const c10::SourceLocation&, const std::string&, const bool) override {}
#endif
};

#if TORCH_VERSION_MAJOR >= 2
using WarningHandlerGuard = c10::WarningUtils::WarningHandlerGuard;
#else
using WarningHandlerGuard = c10::Warning::WarningHandlerGuard;
#endif

// The same convolution and product in int8 on LibTorch's quantized engine
// (oneDNN on Debian's 1.13, FBGEMM or x86 on 2.x: VNNI or AMX where the CPU
// has them), through the ops a statically quantized model runs: uint8
// activations, int8 weights. Integer operations are counted as the float
// kernels' FLOPs. On a 1-thread AVX-512 VNNI EPYC (2026-12-07) the product ran
// at about 4x its float32 rate.
void probe_int8(std::map<std::string, double>& peaks, const at::Tensor& image,
                const at::Tensor& filters, const at::Tensor& left, const at::Tensor& right) {
  // Any scale does for speed; this one keeps standard-normal values in range.
  constexpr double kScale = 0.05;
  constexpr int64_t kActivationZeroPoint = 128;
  const auto activations = [&](const at::Tensor& values) {
    return at::quantize_per_tensor(values, kScale, kActivationZeroPoint, at::kQUInt8);
  };
  const auto weights = [&](const at::Tensor& values) {
    return at::quantize_per_tensor(values, kScale, 0, at::kQInt8);
  };
  const std::vector<int64_t> ones = {1, 1};
  const auto conv = call_op("quantized::conv2d_prepack", "",
                            {weights(filters), c10::IValue(), ones, ones, ones, int64_t{1}});
  peaks["conv2d_int8"] = op_gflops("quantized::conv2d", "new", kConvFlops,
                                   {activations(image), conv, kScale, kActivationZeroPoint});
  const auto linear =
      call_op("quantized::linear_prepack", "", {weights(linear_weight(right)), c10::IValue()});
  peaks["mm_int8"] = op_gflops("quantized::linear", "", kMmFlops,
                               {activations(left), linear, kScale, kActivationZeroPoint});
}

}  // namespace

std::map<std::string, double> measure_compute_peaks() {
  at::NoGradGuard no_grad;
  std::map<std::string, double> peaks;
  // Channels-last images: LibTorch hands those convolutions to oneDNN, as the
  // frozen graphs' do; a contiguous NCHW one may take a slower path.
  const auto image =
      at::randn({kBatch, kChannels, kSide, kSide}).contiguous(at::MemoryFormat::ChannelsLast);
  const auto filters =
      at::randn({kChannels, kChannels, 3, 3}).contiguous(at::MemoryFormat::ChannelsLast);
  const auto left = at::randn({kRows, kInner});
  const auto right = at::randn({kInner, kColumns});
  for (const auto& [suffix, dtype] :
       {std::pair{"fp32", at::kFloat}, std::pair{"bf16", at::kBFloat16}}) {
    const auto x = image.to(dtype), w = filters.to(dtype), a = left.to(dtype), b = right.to(dtype);
    try {
      peaks[std::string("conv2d_") + suffix] =
          best_gflops(kConvFlops, [&] { at::conv2d(x, w, {}, 1, 1); });
      peaks[std::string("mm_") + suffix] = best_gflops(kMmFlops, [&] { at::mm(a, b); });
    } catch (const c10::Error&) {
      // A dtype this LibTorch cannot compute here leaves its kernels out.
    }
  }
  try {
    probe_xnnpack(peaks, image, filters, left, right);
  } catch (const c10::Error&) {
    // No XNNPACK in this LibTorch.
  }
  try {
    SilentWarnings silent;
    const WarningHandlerGuard quiet(&silent);
    probe_int8(peaks, image, filters, left, right);
  } catch (const c10::Error&) {
    // No quantized engine in this LibTorch.
  }
  return peaks;
}

double peak_gflops_for(const std::map<std::string, double>& peaks, const std::string& precision) {
  // A model below float32 still runs some of its ops in float32.
  const auto usable = [&precision](const std::string& kernel) {
    const std::string arithmetic = kernel.substr(kernel.rfind('_') + 1);
    if (arithmetic == "fp32") return true;
    if (arithmetic == "bf16") return precision == "bf16" || precision == "amp";
    return arithmetic == precision;  // int8
  };
  double best = std::numeric_limits<double>::quiet_NaN();
  for (const auto& [kernel, gflops] : peaks) {
    if (!usable(kernel)) continue;
    if (std::isnan(best) || gflops > best) best = gflops;
  }
  return best;
}

}  // namespace tracebench
