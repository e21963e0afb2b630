"""Writes a torchvision model's reference data for the zoo equivalence tests.

usage: /usr/bin/python3 torchvision_reference.py MODEL OUT_DIR

OUT_DIR/weights.pt    torch.save(model.state_dict())   (randomly initialised, seed 0;
                      batch-norm statistics and affine terms randomised too, so
                      that the buffers matter and deep nets keep a useful scale)
OUT_DIR/reference.pt  torch.save({"input": x, "output": model(x)})  (x: 1x3x224x224, seed 1)

Exit code 3 (and a message) when torch or torchvision cannot be imported.
"""
import os
import sys

try:
    import torch
    import torchvision
except ImportError as error:  # the C++ test turns this into a skip
    print(f"torchvision unavailable: {error}")
    sys.exit(3)


def main() -> int:
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
