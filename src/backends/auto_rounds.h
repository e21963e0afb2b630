#pragma once
// How `auto` times its candidates: rounds of one call per candidate, in turn,
// so that drift in machine load hits every candidate alike; then a run-off,
// more rounds among the candidates close to the fastest, since a handful of
// calls cannot rank runtimes a few percent apart (resnext50_32x4d at batch 8:
// auto ran ofi, 1.5% behind ONNX Runtime's own API, after 7 calls each).

#include <cstddef>
#include <functional>
#include <vector>

namespace tracebench {

struct CandidateRounds {
  std::vector<std::vector<double>> samples_s;  // per candidate, seconds per timed call
  std::vector<double> medians_s;               // of samples_s
  size_t runoff_candidates = 0;                // how many ran the run-off (0: none needed)
  size_t fastest = 0;                          // lowest median (among the run-off's, if one ran)
};

struct RoundsPlan {
  int first_rounds = 7;
  int runoff_rounds = 14;
  double runoff_margin = 0.05;  // relative to the fastest median
};
/// `first_rounds` rounds over every candidate, then, when two or more have a
/// median within `runoff_margin` of the fastest, `runoff_rounds` more over
/// those alone; the winner is the lowest median among them, over all their
/// samples. `time_call(i)` times one call of candidate i. Throws on zero
/// candidates.
CandidateRounds time_candidates_in_rounds(size_t candidates,
                                          const std::function<double(size_t)>& time_call,
                                          const RoundsPlan& plan = {});

}  // namespace tracebench
