import torch
from torch import nn


class NeedsArguments(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.linear = nn.Linear(width, width)

    def forward(self, x):
        return self.linear(x)


class NoExampleInputs(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 3)

    def forward(self, x):
        return self.linear(x)


class ReturnsNonTensors(nn.Module):
    def forward(self, x):
        return x

    def get_example_inputs(self):
        return ("not a tensor",)


class RaisesInConstructor(nn.Module):
    def __init__(self):
        super().__init__()
        raise RuntimeError("no weights here")


class ExampleInputsRaise(NoExampleInputs):
    def get_example_inputs(self):
        raise ValueError("no data")


class HangsInConstructor(nn.Module):
    """Never finishes constructing: --timeout must cover loading."""

    def __init__(self):
        super().__init__()
        import time
        while True:
            time.sleep(1)


class _Doubled(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


class _OneLinear(nn.Module):
    """A Linear(4, 3) on a batch of 2: what the models below differ in is their forward."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 3)

    def get_example_inputs(self):
        return (torch.randn(2, 4),)


class CustomAutogradFunction(_OneLinear):
    """Traces (the function is a Python call in the graph), but TorchScript cannot save it."""

    def forward(self, x):
        return _Doubled.apply(self.linear(x))


class _SignGate(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        if x.sum() > 0:  # a Python branch on a value: torch.export cannot follow it either
            return x
        return -x

    @staticmethod
    def backward(ctx, grad):
        return grad


class DataDependentAutogradFunction(_OneLinear):
    """Neither TorchScript (a Python call in the trace) nor torch.export (a branch on data)
    takes it."""

    def forward(self, x):
        return _SignGate.apply(self.linear(x))


class ComputesWithItsBatch(_OneLinear):
    """Computes a shape from its batch: Python's trace records the size, but a trace of that
    graph in C++ holds the example's batch as a constant and fails at any other (under
    --shape-set the backends run Python's graph itself)."""

    def forward(self, x):
        return self.linear(x).reshape(x.size(0) * 3)



class NothingToQuantize(nn.Module):
    """A cumulative sum and a sine: no op an int8 quantizer rewrites (tests/e2e/
    peer_runtimes_test.cpp: the static int8 backends say so)."""

    def forward(self, x):
        return torch.cumsum(x, dim=1).sin()

    def get_example_inputs(self):
        return (torch.randn(2, 8),)
