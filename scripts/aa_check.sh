#!/usr/bin/env bash
# A/A check: eager against eager, repeated. A sound harness reports ~1.00x and
# a p-value above 0.05 in most runs (about 95% when nothing differs).
# Usage: scripts/aa_check.sh [runs] [model]   (default: 10 runs, small_convnet)
set -euo pipefail
runs=${1:-10}
model=${2:-small_convnet}
binary=${TRACEBENCH:-$(dirname "$0")/../build/tracebench}
within=0
significant=0
for ((i = 1; i <= runs; i++)); do
  line=$("$binary" --performance --only="$model" --backend=eager --seed "$i" -n 30)
  echo "$line"
  speedup=$(sed -E 's/.* ([0-9.]+)x p=.*/\1/' <<<"$line")
  p=$(sed -E 's/.*p=([0-9.]+).*/\1/' <<<"$line")
  awk -v s="$speedup" 'BEGIN {exit !(s >= 0.97 && s <= 1.03)}' && within=$((within + 1))
  awk -v p="$p" 'BEGIN {exit !(p <= 0.05)}' && significant=$((significant + 1))
done
echo "A/A $model: $within/$runs runs within 0.97-1.03x; $significant/$runs with p <= 0.05"
