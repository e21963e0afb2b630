"""torchvision's ShuffleNetV2 x0.5 (channel shuffle, chunk, concat), untrained."""
import torch
import torch.nn as nn
import torchvision


class ShuffleNetV2Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = torchvision.models.shufflenet_v2_x0_5(weights=None)

    def forward(self, x):
        return self.m(x)

    def get_example_inputs(self):
        return (torch.randn(1, 3, 64, 64),)
