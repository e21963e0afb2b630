"""A model in the middle of post-training quantization's calibration: an
observer after each layer records the running range of its activations in
min_val/max_val buffers, updated in place with copy_ in forward, as
torch.ao.quantization's MinMaxObserver does, and passes the activation on
unchanged. The outputs do not depend on the recorded range."""
import torch
import torch.nn as nn


class RangeObserver(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("min_val", torch.tensor(float("inf")))
        self.register_buffer("max_val", torch.tensor(float("-inf")))

    def forward(self, x):
        observed = x.detach()
        self.min_val.copy_(torch.minimum(self.min_val, observed.min()))
        self.max_val.copy_(torch.maximum(self.max_val, observed.max()))
        return x


class CalibratingMLP(nn.Module):
    def __init__(self, features=32, hidden=64, classes=10):
        super().__init__()
        self.features = features
        self.layers = nn.ModuleList([nn.Linear(features, hidden), nn.Linear(hidden, hidden),
                                     nn.Linear(hidden, classes)])
        self.observers = nn.ModuleList([RangeObserver() for _ in range(len(self.layers) + 1)])

    def forward(self, x):
        x = self.observers[0](x)
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = torch.relu(x)
            x = self.observers[i + 1](x)
        return x

    def get_example_inputs(self):
        return (torch.randn(8, self.features),)
