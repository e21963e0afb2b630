#include "performance/sample_budget.h"

#include "measure/bootstrap.h"
#include "measure/schedule.h"
#include "measure/statistics.h"

namespace tracebench {

namespace {
constexpr int64_t kBlock = 256;  // adaptive mode draws turn orders this many at a time
}

SampleBudget::SampleBudget(const RunOptions& options, size_t participants)
    : adaptive_(options.target_ci > 0),
      repeat_(options.repeat),
      target_(options.target_ci),
      max_seconds_(options.max_time_s),
      seed_(options.seed),
      participants_(participants),
      active_(participants, true),
      blocked_(options.sample_order == SampleOrder::kBlocked) {
  if (adaptive_) return;
  if (!blocked_) {
    block_ = interleaved_schedule(participants, repeat_, seed_);
    return;
  }
  for (size_t participant = 0; participant < participants; ++participant) {
    block_.insert(block_.end(), repeat_, {participant});
  }
}

bool SampleBudget::another_repetition() {
  if (!started_) {
    started_ = true;
    start_ = std::chrono::steady_clock::now();
  }
  if (!adaptive_) return repetition_ < static_cast<int64_t>(block_.size());
  bool any_backend = false;
  for (size_t i = 1; i < participants_; ++i) any_backend = any_backend || active_[i];
  if (!any_backend || repetition_ >= kAdaptiveMaxRepetitions) return false;
  if (repetition_ < kAdaptiveMinSamples) return true;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return max_seconds_ <= 0 || elapsed < max_seconds_;
}

std::vector<size_t> SampleBudget::next_order() {
  if (!adaptive_) return block_[repetition_];
  if (repetition_ - block_start_ >= static_cast<int64_t>(block_.size())) {
    block_start_ = repetition_;
    block_ = interleaved_schedule(participants_, kBlock, seed_ + repetition_);
  }
  std::vector<size_t> order;
  for (size_t index : block_[repetition_ - block_start_]) {
    if (active_[index]) order.push_back(index);
  }
  return order;
}

int64_t SampleBudget::sample_index() const {
  return blocked_ ? repetition_ % repeat_ : repetition_;
}

void SampleBudget::finish_repetition(const std::vector<const std::vector<double>*>& samples) {
  ++repetition_;
  if (!adaptive_ || repetition_ < kAdaptiveMinSamples ||
      (repetition_ - kAdaptiveMinSamples) % kAdaptiveCheckEvery != 0) {
    return;
  }
  const auto* eager = samples[0];
  for (size_t i = 1; i < participants_; ++i) {
    if (!active_[i]) continue;
    if (samples[i] == nullptr || eager == nullptr) {
      active_[i] = false;  // failed: nothing more to learn
      continue;
    }
    const double speedup = median(*eager) / median(*samples[i]);
    const auto ci =
        bootstrap_median_ratio_ci(*eager, *samples[i], kDefaultBootstrapResamples, 0.95, seed_ + i);
    if (precise_enough(ci, speedup, target_)) active_[i] = false;
  }
}

}  // namespace tracebench
