#!/usr/bin/env bash
# Builds the libFuzzer targets (clang++ with libFuzzer required) and runs each
# for SECONDS (default 300). Crashes are written to build-fuzz/artifacts/.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
build=${BUILD_DIR:-build-fuzz}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTRACEBENCH_FUZZ=ON \
  -DTRACEBENCH_BUILD_BENCHMARKS=OFF >/dev/null
if ! cmake --build "$build" --target fuzzers; then
  echo "fuzz.sh: the fuzzers did not build: is clang++ with libFuzzer installed?" \
       "(apt-get install clang libclang-rt-14-dev)" >&2
  exit 1
fi
mkdir -p "$build/artifacts"
for name in model_spec csv_reader; do
  echo "== $name: ${seconds}s"
  mkdir -p "$build/fuzz/corpus/$name"
  "$build/fuzz/${name}_fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/artifacts/${name}-" -print_final_stats=1 \
    "$build/fuzz/corpus/$name" "fuzz/corpus/$name"
done
