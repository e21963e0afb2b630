"""A tiny Swin Transformer from torchvision's SwinTransformer class (shifted
window attention, relative position bias, patch merging), untrained."""
import torch
import torch.nn as nn
from torchvision.models.swin_transformer import SwinTransformer


class SwinWrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = SwinTransformer(
            patch_size=[4, 4],
            embed_dim=32,
            depths=[2, 2],
            num_heads=[2, 4],
            window_size=[4, 4],
            stochastic_depth_prob=0.1,
            num_classes=10,
        )

    def forward(self, x):
        return self.m(x)

    def get_example_inputs(self):
        return (torch.randn(1, 3, 64, 64),)
