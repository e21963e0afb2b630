"""A small convolutional network whose activation is a hand-written
torch.autograd.Function: a swish (x * sigmoid(x)) that saves only its input
and recomputes the sigmoid in backward, the memory-saving trick of
EfficientNet ports. torch.jit.trace records the Function as a Python call,
which a TorchScript archive cannot hold."""
import torch
import torch.nn as nn


class LeanSwish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        gate = torch.sigmoid(x)
        return grad * gate * (1 + x * (1 - gate))


class Swish(nn.Module):
    def forward(self, x):
        return LeanSwish.apply(x)


class SwishConvNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), Swish(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), Swish(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(32, classes)

    def forward(self, x):
        return self.head(self.body(x))

    def get_example_inputs(self):
        return (torch.randn(2, 3, 32, 32),)
