#include "backends/auto_rounds.h"

#include <algorithm>
#include <stdexcept>

#include "measure/statistics.h"

namespace tracebench {

namespace {

void run_rounds(const std::vector<size_t>& who, int rounds,
                const std::function<double(size_t)>& time_call, CandidateRounds& result) {
  for (int round = 0; round < rounds; ++round) {
    for (const size_t candidate : who) result.samples_s[candidate].push_back(time_call(candidate));
  }
  for (const size_t candidate : who) {
    result.medians_s[candidate] = median(result.samples_s[candidate]);
  }
}

size_t lowest(const std::vector<size_t>& who, const std::vector<double>& medians) {
  return *std::min_element(who.begin(), who.end(),
                           [&](size_t a, size_t b) { return medians[a] < medians[b]; });
}

}  // namespace

CandidateRounds time_candidates_in_rounds(size_t candidates,
                                          const std::function<double(size_t)>& time_call,
                                          const RoundsPlan& plan) {
  if (candidates == 0) throw std::invalid_argument("time_candidates_in_rounds: no candidate");
  CandidateRounds result;
  result.samples_s.resize(candidates);
  result.medians_s.resize(candidates);
  std::vector<size_t> everyone(candidates);
  for (size_t i = 0; i < candidates; ++i) everyone[i] = i;
  run_rounds(everyone, plan.first_rounds, time_call, result);

  const double leader = result.medians_s[lowest(everyone, result.medians_s)];
  std::vector<size_t> close;
  for (size_t i = 0; i < candidates; ++i) {
    if (result.medians_s[i] <= leader * (1 + plan.runoff_margin)) close.push_back(i);
  }
  if (close.size() > 1) {
    result.runoff_candidates = close.size();
    run_rounds(close, plan.runoff_rounds, time_call, result);
  }
  // Among the run-off's only: a candidate left out had a median over 5% behind,
  // from fewer calls, and load drifting up in the run-off must not hand it the win.
  result.fastest = lowest(close, result.medians_s);
  return result;
}

}  // namespace tracebench
