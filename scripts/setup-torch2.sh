#!/usr/bin/env bash
# Makes the Python environment of the PyTorch 2.x work (docs/pytorch2.md):
# torch from PyPI without the CUDA wheels it declares, since the machine's
# CUDA 13 toolkit serves for most of them, plus the four CUDA libraries the
# toolkit lacks or has too old. Idempotent; usage: setup-torch2.sh [VENV]
set -euo pipefail

venv=${1:-build-torch2/venv}
torch_version=2.15.0  # the newest with the lazy TorchScript backend and AOTInductor's loader
# Pinned as torch 2.15.0 pins them (nvidia-cufile: cuda-toolkit 13.2.2's `cufile` extra).
missing_cuda_libraries=(
  nvidia-cusparselt-cu13==0.8.1  # libcusparseLt.so.0: not in the toolkit
  nvidia-nvshmem-cu13==3.7.2     # libnvshmem_host.so.3: not in the toolkit
  'nvidia-cufile==1.17.1.22.*'   # libcufile.so.0: not in the toolkit
  nvidia-nccl-cu13==2.30.7       # the toolkit's NCCL 2.28 lacks symbols libtorch_cuda.so uses
)
python_dependencies=(filelock 'typing-extensions>=4.13.0' 'setuptools>=77.0.3' 'sympy>=1.13.3'
                     'networkx>=2.5.1' jinja2 'fsspec>=0.8.5' numpy)
# torchvision for the zoo's reference checks and the user-model corpus: 0.29.2 is the newest on
# PyPI (built for torch 2.14); its models and ops load with 2.15. --no-deps, or pip would
# replace torch.
torchvision=(torchvision==0.29.2 pillow)
# The hub models (--only=hf:TYPE, --only=timm:NAME; python/hub_models.py). timm --no-deps, as
# torchvision; transformers has no hard torch requirement.
hub_libraries=(transformers==5.24.0 pyyaml huggingface_hub safetensors)
hub_libraries_without_deps=(timm==1.0.31)

if [[ "$(ldconfig -p)" != *'libcudart.so.13 '* ]]; then
  echo "setup-torch2: error: no CUDA 13 runtime (libcudart.so.13) on this machine; PyPI's torch" \
       "$torch_version is a CUDA build even on CPU: install the CUDA 13 toolkit" >&2
  exit 2
fi
if ! /usr/bin/python3 -c 'import ensurepip' 2>/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv
fi
[[ -x "$venv/bin/python" ]] || /usr/bin/python3 -m venv "$venv"

installed=$("$venv/bin/python" -c 'import torch; print(torch.__version__)' 2>/dev/null || true)
if [[ "${installed%%+*}" != "$torch_version" ]]; then
  "$venv/bin/pip" install --quiet --no-deps "torch==$torch_version"
fi
# pip then lists the CUDA wheels left out (cuDNN, Triton, ...) as "not installed": on
# purpose, the toolkit's libraries serve instead.
"$venv/bin/pip" install --quiet "${python_dependencies[@]}" "${missing_cuda_libraries[@]}"
"$venv/bin/pip" install --quiet --no-deps "${torchvision[@]}" "${hub_libraries_without_deps[@]}"
"$venv/bin/pip" install --quiet "${hub_libraries[@]}"

# What the 2.x backends rely on, checked rather than assumed.
"$venv/bin/python" - <<'PY'
import os
import subprocess
import torch

lib = os.path.join(os.path.dirname(torch.__file__), "lib")
symbols = subprocess.run(["nm", "-D", "--defined-only", os.path.join(lib, "libtorch_cpu.so")],
                         capture_output=True, text=True, check=True).stdout
for needed in ("InitTorchScriptBackend", "AOTIModelPackageLoader"):
    if needed not in symbols:
        raise SystemExit(f"setup-torch2: error: libtorch_cpu.so {torch.__version__} lacks {needed}")
import torchvision.extension
import timm, transformers  # the hub models' libraries import with this torch
if not torchvision.extension._has_ops():
    raise SystemExit(f"setup-torch2: error: torchvision's ops do not load with torch {torch.__version__}")
print(f"torch {torch.__version__} in {os.path.dirname(torch.__file__)} "
      f"(C++11 ABI {torch._C._GLIBCXX_USE_CXX11_ABI}, CUDA available: {torch.cuda.is_available()})")
PY
