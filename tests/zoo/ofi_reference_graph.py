"""Prints the node kinds of what Python's optimize_for_inference makes of a
torchvision model: `torch.jit.optimize_for_inference(torch.jit.freeze(
torch.jit.trace(model, x)))`, the three lines tracebench's `ofi` must equal.

usage: /usr/bin/python3 ofi_reference_graph.py MODEL

One line per kind, "KIND COUNT", sorted; top-level nodes of the graph.
Exit code 3 (and a message) when torch or torchvision cannot be imported.
"""
import collections
import sys

try:
    import torch
    import torchvision
except ImportError as error:  # the C++ test turns this into a skip
    print(f"torchvision unavailable: {error}")
    sys.exit(3)


def main() -> int:
    torch.manual_seed(0)
    model = getattr(torchvision.models, sys.argv[1])(weights=None).eval()
    x = torch.randn(1, 3, 224, 224)
    with torch.no_grad():
        traced = torch.jit.trace(model, x)
        optimized = torch.jit.optimize_for_inference(torch.jit.freeze(traced))
    kinds = collections.Counter(node.kind() for node in optimized.graph.nodes())
    for kind, count in sorted(kinds.items()):
        print(kind, count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
