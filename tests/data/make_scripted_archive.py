"""Writes a scripted TorchScript archive that exports get_example_inputs, the
other way (besides the .py exporter) a .pt file can carry its inputs."""
import sys

import torch
from torch import nn


class ScriptedNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(6, 2)

    def forward(self, x):
        return torch.relu(self.linear(x))

    @torch.jit.export
    def get_example_inputs(self):
        return (torch.ones(3, 6),)


torch.manual_seed(0)
torch.jit.save(torch.jit.script(ScriptedNet()), sys.argv[1])
