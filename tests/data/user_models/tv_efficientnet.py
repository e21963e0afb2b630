"""torchvision's EfficientNet-B0 (MBConv, SiLU, stochastic depth), untrained."""
import torch
import torch.nn as nn
import torchvision


class EfficientNetWrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = torchvision.models.efficientnet_b0(weights=None)

    def forward(self, x):
        return self.m(x)

    def get_example_inputs(self):
        return (torch.randn(1, 3, 64, 64),)
