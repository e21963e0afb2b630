#pragma once
// Counters (CompiledModel::counters) that reports show as columns of their
// own: a backend that specializes on input shapes (--shape-set) counts the
// distinct graphs it compiled or traced in the run, and the seconds that
// took in all. A backend that does not count them leaves them out.

namespace tracebench {

inline constexpr const char* kGraphsCounter = "graphs";
inline constexpr const char* kGraphCompileSecondsCounter = "graph_compile_s";

}  // namespace tracebench
