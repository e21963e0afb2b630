#!/usr/bin/env bash
# Installs what tracebench needs on Debian 12 (bookworm), as root. Idempotent.
set -euo pipefail

packages=(
  cmake ninja-build g++ git
  ccache                   # a warm cache gives back unchanged files (cmake/compiler_cache.cmake)
  libtorch-dev             # LibTorch 1.13.1, CPU
  libopenblas0-pthread     # switches libblas.so.3 from the slow reference BLAS
  python3-torch            # exports .py model files; reference for tests
  python3-torchvision      # reference models for the zoo's equivalence tests
  libcli11-dev nlohmann-json3-dev libboost-dev
  googletest libgtest-dev libbenchmark-dev
  chromium                 # renders the HTML report in its end-to-end tests
  chromium-driver python3-selenium  # measure the rendered report (tests/e2e/html_layout.py)
  cmark-gfm                # GitHub's markdown parser: reads --markdown's tables in a test
  clang                    # builds the fuzz targets ctest runs (fuzz/)
  libclang-rt-14-dev       # clang's libFuzzer and sanitizer runtimes: a Recommends of clang,
                           # which --no-install-recommends leaves out
  clang-format             # the format check of .ci/run (scripts/format.sh)
  libjemalloc2 libtcmalloc-minimal4  # --malloc jemalloc / tcmalloc (orchestration/launcher.h)
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# OpenBLAS must be what libblas.so.3 resolves to (see docs: reference BLAS is
# several times slower on every linear layer).
blas=$(update-alternatives --query libblas.so.3-x86_64-linux-gnu 2>/dev/null |
       awk '/^Value:/ {print $2}')
case "$blas" in
  *openblas*) ;;
  *) update-alternatives --set libblas.so.3-x86_64-linux-gnu \
       /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 ;;
esac
