"""torchvision's MobileNetV3-Small (hardswish, squeeze-excite), untrained."""
import torch
import torch.nn as nn
import torchvision


class MobileNetV3Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = torchvision.models.mobilenet_v3_small(weights=None)

    def forward(self, x):
        return self.m(x)

    def get_example_inputs(self):
        return (torch.randn(1, 3, 64, 64),)
