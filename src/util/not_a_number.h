#pragma once
// The value a figure takes when it cannot be computed (too few samples,
// outputs whose shapes differ): NaN, which every report writes as empty.

#include <limits>

namespace tracebench {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace tracebench
