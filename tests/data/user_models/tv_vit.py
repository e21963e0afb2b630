"""A tiny Vision Transformer from torchvision's VisionTransformer class
(patchify conv, class token, learned position embedding), untrained."""
import torch
import torch.nn as nn
from torchvision.models.vision_transformer import VisionTransformer


class ViTWrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = VisionTransformer(
            image_size=64,
            patch_size=16,
            num_layers=2,
            num_heads=2,
            hidden_dim=64,
            mlp_dim=128,
            num_classes=10,
        )

    def forward(self, x):
        return self.m(x)

    def get_example_inputs(self):
        return (torch.randn(1, 3, 64, 64),)
