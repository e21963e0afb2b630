#include "measure/statistics.h"

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "util/not_a_number.h"

namespace tracebench {

double median_in_place(std::vector<double>& values) {
  if (values.empty()) return kNaN;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  if (values.size() % 2 == 1) return values[mid];
  const double upper = values[mid];
  const double lower = *std::max_element(values.begin(), values.begin() + mid);
  return (lower + upper) / 2;
}

double median(std::vector<double> values) { return median_in_place(values); }

size_t samples_for_percentile(double percent) {
  // Rounded to 1e-9 first: 1 / (1 - 0.999) is 1000.0000000000009 in doubles.
  const double exact = 1.0 / (1.0 - percent / 100.0);
  return static_cast<size_t>(std::ceil(std::round(exact * 1e9) / 1e9));
}

double nearest_rank_percentile(std::vector<double> values, double percent) {
  if (values.empty() || values.size() < samples_for_percentile(percent)) return kNaN;
  const double exact_rank = percent / 100.0 * static_cast<double>(values.size());
  const auto rank = static_cast<size_t>(std::ceil(std::round(exact_rank * 1e9) / 1e9));
  const size_t index = std::clamp<size_t>(rank, 1, values.size()) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index),
                   values.end());
  return values[index];
}

double mean(const std::vector<double>& values) {
  if (values.empty()) return kNaN;
  return std::accumulate(values.begin(), values.end(), 0.0) / values.size();
}

double sample_variance(const std::vector<double>& values) {
  if (values.size() < 2) return kNaN;
  const double m = mean(values);
  double sum = 0;
  for (double v : values) sum += (v - m) * (v - m);
  return sum / (values.size() - 1);
}

double geometric_mean(const std::vector<double>& values) {
  double log_sum = 0;
  size_t count = 0;
  for (double v : values) {
    if (v > 0 && std::isfinite(v)) {
      log_sum += std::log(v);
      ++count;
    }
  }
  return count == 0 ? kNaN : std::exp(log_sum / count);
}

WelchResult welch_t_test(const std::vector<double>& a, const std::vector<double>& b) {
  WelchResult result;
  if (a.size() < 2 || b.size() < 2) {
    result.p_value = kNaN;
    return result;
  }
  const double na = a.size(), nb = b.size();
  const double va = sample_variance(a) / na, vb = sample_variance(b) / nb;
  const double difference = mean(a) - mean(b);
  if (va + vb == 0) {
    result.p_value = difference == 0 ? 1.0 : 0.0;
    result.t = difference == 0 ? 0.0 : std::copysign(INFINITY, difference);
    return result;
  }
  result.t = difference / std::sqrt(va + vb);
  result.degrees_of_freedom = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
  boost::math::students_t distribution(result.degrees_of_freedom);
  result.p_value = 2 * boost::math::cdf(boost::math::complement(distribution, std::fabs(result.t)));
  return result;
}

}  // namespace tracebench
