#!/usr/bin/env bash
# Formats tracebench's C++ with the checked-in .clang-format, or with --check
# fails (listing the files) if any is not formatted; .ci/run runs the check.
#   scripts/format.sh          rewrite the files in place
#   scripts/format.sh --check  change nothing; exit 1 if a file needs formatting
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v clang-format >/dev/null; then
  echo "scripts/format.sh: clang-format not found; apt-get install clang-format" >&2
  exit 2
fi
mapfile -t files < <(git ls-files -- '*.cpp' '*.h' ':!:tests/data/**' ':!:fuzz/corpus/**')
if [ "${1:-}" = --check ]; then
  unformatted=()
  for file in "${files[@]}"; do
    clang-format --dry-run --Werror "$file" >/dev/null 2>&1 || unformatted+=("$file")
  done
  if ((${#unformatted[@]})); then
    printf 'not formatted (run scripts/format.sh): %s\n' "${unformatted[@]}" >&2
    exit 1
  fi
  echo "format: ${#files[@]} files formatted"
else
  clang-format -i "${files[@]}"
fi
