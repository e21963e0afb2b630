"""torchvision's DeepLabV3 with a MobileNetV3-Large backbone, untrained. Returns
torchvision's OrderedDict {"out": logits}, kept as it is."""
import torch
import torch.nn as nn
from torchvision.models.segmentation import deeplabv3_mobilenet_v3_large


class DeepLabWrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.m = deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None, num_classes=4)

    def forward(self, x):
        return self.m(x)

    def get_example_inputs(self):
        return (torch.randn(1, 3, 64, 64),)
