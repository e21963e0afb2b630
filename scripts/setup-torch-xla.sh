#!/usr/bin/env bash
# Makes the Python environment of the torch_xla peer (bench/torch_xla_peer.py,
# docs/performance.md): torch_xla's newest release on PyPI, 2.9, with the torch and
# torchvision it was built for. torch 2.9's wheel links CUDA 12, which the machine's
# CUDA 13 toolkit does not provide, so pip brings the nvidia-*-cu12 wheels too (7 GB
# in all; about two minutes here). Idempotent; usage: setup-torch-xla.sh [VENV]
set -euo pipefail

venv=${1:-build-xla/venv}
packages=(torch==2.9.0 torch-xla==2.9.0 torchvision==0.24.0)

if ! /usr/bin/python3 -c 'import ensurepip' 2>/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv
fi
[[ -x "$venv/bin/python" ]] || /usr/bin/python3 -m venv "$venv"
if ! "$venv/bin/python" -c 'import torch_xla' 2>/dev/null; then
  "$venv/bin/pip" install --quiet "${packages[@]}"
fi
PJRT_DEVICE=CPU "$venv/bin/python" -c '
import torch, torch_xla
print(f"torch {torch.__version__}, torch_xla {torch_xla.__version__}, device {torch_xla.device()}")'
