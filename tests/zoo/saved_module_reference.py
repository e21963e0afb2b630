"""Loads a module tracebench saved with --save-optimized, as a deployment would,
and checks its outputs against what tracebench timed.

usage: /usr/bin/python3 saved_module_reference.py MODULE REFERENCE TOLERANCE [LOADER_STEP]

REFERENCE    torch.save-format ([input tensors], output tensor), written by the test
TOLERANCE    the largest allowed max|loaded - output| relative to max(1, max|output|)
LOADER_STEP  "torch.jit.optimize_for_inference" when the file holds the graph before it

Exit 0 when within tolerance, 1 (with both figures) when not; 3 when torch cannot be
imported.
"""
import sys

try:
    import torch
except ImportError as error:  # the C++ test turns this into a skip
    print(f"torch unavailable: {error}")
    sys.exit(3)


def main() -> int:
    module_path, reference_path, tolerance = sys.argv[1], sys.argv[2], float(sys.argv[3])
    loader_step = sys.argv[4] if len(sys.argv) > 4 else ""
    # Written by the test itself (torch::pickle_save), so trusted: 2.6+ would refuse
    # its tensor lists under the default weights_only=True.
    inputs, expected = torch.load(reference_path, weights_only=False)
    module = torch.jit.load(module_path).eval()
    if loader_step == "torch.jit.optimize_for_inference":
        module = torch.jit.optimize_for_inference(module)
    elif loader_step:
        print(f"unknown loader step {loader_step!r}")
        return 1
    with torch.no_grad():
        actual = module(*inputs)
    error = (actual.float() - expected.float()).abs().max().item()
    bound = tolerance * max(1.0, expected.abs().max().item())
    print(f"max abs difference {error:.3g}, allowed {bound:.3g}")
    return 0 if error <= bound else 1


if __name__ == "__main__":
    sys.exit(main())
