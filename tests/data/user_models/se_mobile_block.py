"""MobileNet-style network: depthwise separable convolutions with
squeeze-and-excitation gates and hardswish / SiLU activations."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SqueezeExcite(nn.Module):
    def __init__(self, channels, reduction=4):
        super().__init__()
        hidden = max(8, channels // reduction)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc1 = nn.Conv2d(channels, hidden, 1)
        self.fc2 = nn.Conv2d(hidden, channels, 1)

    def forward(self, x):
        s = self.pool(x)
        s = F.relu(self.fc1(s))
        s = torch.sigmoid(self.fc2(s))
        return x * s


class SqueezeExciteLinear(nn.Module):
    """The same gate written with nn.Linear, as some codebases do."""

    def __init__(self, channels, reduction=4):
        super().__init__()
        self.fc = nn.Sequential(
            nn.Linear(channels, channels // reduction),
            nn.ReLU(inplace=True),
            nn.Linear(channels // reduction, channels),
            nn.Sigmoid(),
        )

    def forward(self, x):
        b, c, _, _ = x.shape
        y = F.adaptive_avg_pool2d(x, 1).view(b, c)
        y = self.fc(y).view(b, c, 1, 1)
        return x * y.expand_as(x)


class DepthwiseSeparable(nn.Module):
    def __init__(self, in_ch, out_ch, stride=1, act=nn.Hardswish, se="conv"):
        super().__init__()
        self.dw = nn.Conv2d(in_ch, in_ch, 3, stride=stride, padding=1, groups=in_ch, bias=False)
        self.bn1 = nn.BatchNorm2d(in_ch)
        self.act1 = act()
        self.se = SqueezeExcite(in_ch) if se == "conv" else SqueezeExciteLinear(in_ch)
        self.pw = nn.Conv2d(in_ch, out_ch, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_ch)
        self.act2 = act()
        self.use_residual = stride == 1 and in_ch == out_ch

    def forward(self, x):
        out = self.act1(self.bn1(self.dw(x)))
        out = self.se(out)
        out = self.act2(self.bn2(self.pw(out)))
        if self.use_residual:
            out = out + x
        return out


class SEDepthwiseNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(16),
            nn.Hardswish(),
        )
        self.blocks = nn.Sequential(
            DepthwiseSeparable(16, 16, act=nn.Hardswish),
            DepthwiseSeparable(16, 32, stride=2, act=nn.Hardswish),
            DepthwiseSeparable(32, 32, act=nn.SiLU, se="linear"),
            DepthwiseSeparable(32, 64, stride=2, act=nn.SiLU, se="linear"),
        )
        self.head = nn.Sequential(
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.2),
            nn.Linear(64, num_classes),
        )

    def forward(self, x):
        x = self.stem(x)
        x = self.blocks(x)
        return self.head(x)

    def get_example_inputs(self):
        return (torch.randn(2, 3, 64, 64),)
