"""Writes a torchvision model's reference data for the zoo tests.

usage: /usr/bin/python3 torchvision_reference.py MODEL OUT_DIR
       /usr/bin/python3 torchvision_reference.py --ofi-graph MODEL

OUT_DIR/weights.pt    torch.save(model.state_dict())   (randomly initialised, seed 0;
                      batch-norm statistics and affine terms randomised too, so
                      that the buffers matter and deep nets keep a useful scale)
OUT_DIR/reference.pt  torch.save({"input": x, "output": model(x)})  (x: 1x3x224x224, seed 1)

--ofi-graph prints the node kinds of what Python's optimize_for_inference makes of
the model, `torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.trace(model,
x)))`, the three lines tracebench's `ofi` must equal: one "KIND COUNT" line per kind,
sorted, for the graph's top-level nodes.

Exit code 3 (and a message) when torch or torchvision cannot be imported.
"""
import collections
import os
import sys

try:
    import torch
    import torchvision
except ImportError as error:  # the C++ test turns this into a skip
    print(f"torchvision unavailable: {error}")
    sys.exit(3)


def print_ofi_graph_kinds(name: str) -> int:
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    x = torch.randn(1, 3, 224, 224)
    with torch.no_grad():
        traced = torch.jit.trace(model, x)
        optimized = torch.jit.optimize_for_inference(torch.jit.freeze(traced))
    kinds = collections.Counter(node.kind() for node in optimized.graph.nodes())
    for kind, count in sorted(kinds.items()):
        print(kind, count)
    return 0


def main() -> int:
    if sys.argv[1] == "--ofi-graph":
        return print_ofi_graph_kinds(sys.argv[2])
    name, out_dir = sys.argv[1], sys.argv[2]
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.running_mean.uniform_(-0.1, 0.1)
                module.running_var.uniform_(0.5, 1.5)
                module.weight.uniform_(0.8, 1.6)
                module.bias.uniform_(-0.1, 0.2)
    torch.manual_seed(1)
    x = torch.randn(1, 3, 224, 224)
    with torch.no_grad():
        y = model(x)
    torch.save(model.state_dict(), os.path.join(out_dir, "weights.pt"))
    torch.save({"input": x, "output": y}, os.path.join(out_dir, "reference.pt"))
    print(f"{name} torchvision {torchvision.__version__} torch {torch.__version__}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
