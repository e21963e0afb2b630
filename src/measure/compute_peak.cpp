#include "measure/compute_peak.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>

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

// XNNPACK's convolution and linear through the ops the xnnpack backend's
// graphs call: absent where LibTorch has no XNNPACK (the prepack then throws).
c10::IValue xnnpack_prepack(const char* op, std::vector<c10::IValue> arguments) {
  auto& dispatcher = c10::Dispatcher::singleton();
  dispatcher.findSchemaOrThrow(op, "").callBoxed(&arguments);
  return arguments.at(0);
}

double xnnpack_gflops(const char* run_op, double flops, const at::Tensor& input,
                      const c10::IValue& context) {
  const auto run = c10::Dispatcher::singleton().findSchemaOrThrow(run_op, "");
  return best_gflops(flops, [&] {
    std::vector<c10::IValue> call = {input, context};
    run.callBoxed(&call);
  });
}

void probe_xnnpack(std::map<std::string, double>& peaks, const at::Tensor& image,
                   const at::Tensor& filters, const at::Tensor& left, const at::Tensor& right) {
  const std::vector<int64_t> ones = {1, 1};
  const auto conv = xnnpack_prepack(
      "prepacked::conv2d_clamp_prepack",
      {filters, c10::IValue(), ones, ones, ones, int64_t{1}, c10::IValue(), c10::IValue()});
  peaks["xnnpack_conv2d_fp32"] =
      xnnpack_gflops("prepacked::conv2d_clamp_run", kConvFlops,
                     image.contiguous(at::MemoryFormat::ChannelsLast), conv);
  // linear(x, W) computes x W^T: the weight is the product's transposed right side.
  const auto linear =
      xnnpack_prepack("prepacked::linear_clamp_prepack",
                      {right.t().contiguous(), c10::IValue(), c10::IValue(), c10::IValue()});
  peaks["xnnpack_linear_fp32"] =
      xnnpack_gflops("prepacked::linear_clamp_run", kMmFlops, left, linear);
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
  return peaks;
}

double peak_gflops_for(const std::map<std::string, double>& peaks, const std::string& precision) {
  const bool bfloat16_allowed = precision == "bf16" || precision == "amp";
  double best = std::numeric_limits<double>::quiet_NaN();
  for (const auto& [kernel, gflops] : peaks) {
    const bool float32 = kernel.size() > 5 && kernel.compare(kernel.size() - 5, 5, "_fp32") == 0;
    if (!float32 && !bfloat16_allowed) continue;
    if (std::isnan(best) || gflops > best) best = gflops;
  }
  return best;
}

}  // namespace tracebench
