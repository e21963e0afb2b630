#include "measure/bootstrap.h"

#include <algorithm>
#include <cmath>
#include <random>  // std::mt19937_64

#include "measure/statistics.h"
#include "util/not_a_number.h"

namespace tracebench {

namespace {

// Fills `buffer` with values.size() draws from `values` with replacement.
// Modulo on the raw engine output, as in schedule.cpp: the standard
// distributions differ between standard libraries, mt19937_64 does not.
void resample(const std::vector<double>& values, std::mt19937_64& generator,
              std::vector<double>& buffer) {
  buffer.resize(values.size());
  for (auto& slot : buffer) slot = values[generator() % values.size()];
}

}  // namespace

double quantile(std::vector<double> values, double q) {
  if (values.empty() || !(q >= 0 && q <= 1)) return kNaN;
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return values[below] + fraction * (values[above] - values[below]);
}

Interval bootstrap_median_ratio_ci(const std::vector<double>& numerator,
                                   const std::vector<double>& denominator, int resamples,
                                   double confidence, uint64_t seed) {
  Interval interval;
  if (numerator.empty() || denominator.empty() || resamples < 1 ||
      !(confidence > 0 && confidence < 1)) {
    return interval;
  }
  std::mt19937_64 generator(seed);
  std::vector<double> ratios, top, bottom;
  ratios.reserve(resamples);
  for (int r = 0; r < resamples; ++r) {
    resample(numerator, generator, top);
    resample(denominator, generator, bottom);
    ratios.push_back(median_in_place(top) / median_in_place(bottom));
  }
  const double tail = (1 - confidence) / 2;
  interval.low = quantile(ratios, tail);
  interval.high = quantile(std::move(ratios), 1 - tail);
  return interval;
}

bool precise_enough(const Interval& interval, double estimate, double target) {
  return interval.valid() && std::isfinite(estimate) &&
         interval.half_width() <= target * std::fabs(estimate) * (1 + 1e-9);  // rounding slack
}

}  // namespace tracebench
