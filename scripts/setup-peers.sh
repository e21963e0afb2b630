#!/usr/bin/env bash
# Makes the peer runtimes' environment (docs/peers.md): OpenVINO and ONNX
# Runtime from PyPI in a virtual environment. OpenVINO's wheel carries its C++
# SDK, which the openvino backends link; ONNX Runtime's carries no headers, so
# its backend runs in a Python worker (python/runtime_worker.py) with this
# environment's interpreter. Idempotent; usage: setup-peers.sh [VENV [PYTHON]]
# (PYTHON makes VENV when missing: Debian's /usr/bin/python3 by default; the
# 2.x build passes its own venv, which already exists).
set -euo pipefail

venv=${1:-build-peers/venv}
python=${2:-/usr/bin/python3}
openvino_version=2026.4.1
onnxruntime_version=1.32.0
onnx_version=1.23.2  # ONNX Runtime's quantizer reads and writes models with it (onnxruntime_int8)
onnxscript_version=0.7.2

if [[ ! -x "$venv/bin/python" ]]; then
  if ! "$python" -c 'import ensurepip' 2>/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv
  fi
  "$python" -m venv "$venv"
fi

installed() {
  "$venv/bin/python" -c "import importlib.metadata as m; print(m.version('$1'))" 2>/dev/null || true
}
wanted=()
[[ "$(installed openvino)" == "$openvino_version" ]] || wanted+=("openvino==$openvino_version")
[[ "$(installed onnxruntime)" == "$onnxruntime_version" ]] || wanted+=("onnxruntime==$onnxruntime_version")
[[ "$(installed onnx)" == "$onnx_version" ]] || wanted+=("onnx==$onnx_version")
# PyTorch 2.x exports ONNX with its dynamo exporter, which needs onnxscript
# (python/export_onnx.py); 1.13's TorchScript exporter needs nothing more.
if "$venv/bin/python" -c 'import sys, torch; sys.exit(int(torch.__version__.split(".")[0]) < 2)' \
     2>/dev/null; then
  [[ "$(installed onnxscript)" == "$onnxscript_version" ]] || wanted+=("onnxscript==$onnxscript_version")
fi
if ((${#wanted[@]})); then
  "$venv/bin/pip" install --quiet "${wanted[@]}"
fi

# What the backends rely on, checked rather than assumed.
"$venv/bin/python" - <<'PY'
import os
import openvino, onnxruntime

root = os.path.dirname(openvino.__file__)
for needed in ("cmake/OpenVINOConfig.cmake", "include/openvino/openvino.hpp"):
    if not os.path.exists(os.path.join(root, needed)):
        raise SystemExit(f"setup-peers: error: the openvino wheel lacks {needed}")
if "CPUExecutionProvider" not in onnxruntime.get_available_providers():
    raise SystemExit("setup-peers: error: onnxruntime has no CPUExecutionProvider")
print(f"openvino {openvino.__version__} in {root}; onnxruntime {onnxruntime.__version__}")
PY
