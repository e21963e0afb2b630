#!/usr/bin/env bash
# Builds tracebench with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-sanitize/ and runs the unit tests under them (docs/robustness.md).
#   scripts/sanitize.sh [extra gtest args, e.g. --gtest_filter='CsvReader.*']
# Slow: a second full build (~10 min on 2 cores), so CI's `make test` does not run it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-sanitize}
jobs=${JOBS:-$(nproc)}
# Warnings are not errors here: with the sanitizers, GCC 12 sees uninitialized
# members inside libstdc++'s <regex> that the plain build does not.
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRACEBENCH_SANITIZE=ON \
  -DTRACEBENCH_WERROR=OFF -DTRACEBENCH_FUZZ=OFF -DTRACEBENCH_BUILD_BENCHMARKS=OFF >/dev/null
ninja -C "$build" -j "$jobs" unit_tests tracebench

# LibTorch is not instrumented: its allocations pass through ASan's interceptors
# but its containers carry no annotations, and its globals live forever.
#  detect_leaks=0            LibTorch and the Python exporter's caches are never freed
#  detect_container_overflow=0  std::vector shared with uninstrumented LibTorch code
#  alloc_dealloc_mismatch=0  new/delete pairs split across instrumented and plain code
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:detect_container_overflow=0:alloc_dealloc_mismatch=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# BUILD_DIR may be absolute or relative to the source tree.
case "$build" in /*) build_path=$build ;; *) build_path=$PWD/$build ;; esac
export TRACEBENCH_CACHE_DIR=${TRACEBENCH_CACHE_DIR:-$build_path/test-cache}
"$build/tests/unit_tests" "$@"
