"""A feature-pyramid backbone that returns a Python list of feature maps,
one per scale."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ListOutputModel(nn.Module):
    def __init__(self, channels=(16, 32, 64), out_channels=32):
        super().__init__()
        self.stages = nn.ModuleList()
        in_ch = 3
        for ch in channels:
            self.stages.append(
                nn.Sequential(
                    nn.Conv2d(in_ch, ch, 3, stride=2, padding=1, bias=False),
                    nn.BatchNorm2d(ch),
                    nn.ReLU(inplace=True),
                )
            )
            in_ch = ch
        self.lateral = nn.ModuleList([nn.Conv2d(ch, out_channels, 1) for ch in channels])
        self.smooth = nn.ModuleList([nn.Conv2d(out_channels, out_channels, 3, padding=1) for _ in channels])

    def forward(self, x):
        feats = []
        for stage in self.stages:
            x = stage(x)
            feats.append(x)

        # top-down pathway
        laterals = [lat(f) for lat, f in zip(self.lateral, feats)]
        for i in range(len(laterals) - 1, 0, -1):
            laterals[i - 1] = laterals[i - 1] + F.interpolate(
                laterals[i], size=laterals[i - 1].shape[-2:], mode="nearest"
            )
        outs = [smooth(l) for smooth, l in zip(self.smooth, laterals)]
        return outs

    def get_example_inputs(self):
        return (torch.randn(2, 3, 64, 64),)
