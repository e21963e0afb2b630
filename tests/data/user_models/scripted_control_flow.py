"""Writes a scripted TorchScript archive whose forward has data-dependent
control flow, which tracing cannot capture:

    /usr/bin/python3 scripted_control_flow.py OUT.pt

The archive exports get_example_inputs (like tests/data/make_scripted_archive.py).
Its example input is torch.rand(...) + 1.0, so x.mean() > 0.5 and forward
always takes the `a` branch; inputs from torch.randn (mean ~0) take the `b`
branch, so a trace that baked in `a` is caught by --randomize-input. The refinement loop runs a number of times that depends on the
data (at most max_steps)."""
import sys

import torch
from torch import nn


class ScriptedGate(nn.Module):
    def __init__(self, width: int = 16, max_steps: int = 4):
        super().__init__()
        self.max_steps = max_steps
        self.a = nn.Linear(width, width)
        self.b = nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Linear(width, width))
        self.refine = nn.Linear(width, width)

    def forward(self, x):
        if x.mean() > 0.5:
            y = self.a(x)
        else:
            y = -self.b(x)
        # keep refining while the activations are large, up to max_steps times
        steps = 0
        while steps < self.max_steps and bool(y.abs().mean() > 0.1):
            y = torch.tanh(self.refine(y)) * 0.5
            steps += 1
        return y

    @torch.jit.export
    def get_example_inputs(self):
        return (torch.rand(4, 16) + 1.0,)


if __name__ == "__main__":
    torch.manual_seed(0)
    torch.jit.save(torch.jit.script(ScriptedGate()), sys.argv[1])
