"""An object detector head that returns a typing.NamedTuple of boxes,
class scores and objectness."""
from typing import NamedTuple

import torch
import torch.nn as nn


class DetectionOutput(NamedTuple):
    boxes: torch.Tensor
    scores: torch.Tensor
    objectness: torch.Tensor


class NamedTupleOutputModel(nn.Module):
    def __init__(self, num_classes=5, num_anchors=3):
        super().__init__()
        self.num_classes = num_classes
        self.num_anchors = num_anchors
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1),
            nn.ReLU(),
        )
        self.box_head = nn.Conv2d(32, num_anchors * 4, 1)
        self.cls_head = nn.Conv2d(32, num_anchors * num_classes, 1)
        self.obj_head = nn.Conv2d(32, num_anchors, 1)

    def forward(self, images):
        feats = self.backbone(images)
        n = feats.shape[0]
        boxes = self.box_head(feats).permute(0, 2, 3, 1).reshape(n, -1, 4)
        scores = self.cls_head(feats).permute(0, 2, 3, 1).reshape(n, -1, self.num_classes).softmax(-1)
        objectness = self.obj_head(feats).permute(0, 2, 3, 1).reshape(n, -1).sigmoid()
        return DetectionOutput(boxes, scores, objectness)

    def get_example_inputs(self):
        return (torch.randn(1, 3, 64, 64),)
