#!/usr/bin/env python3
"""The seed's experiment (PyTorch #88904) with the real torch_xla, next to tracebench's lazy backends.

torch_xla runs each torchvision model on its CPU PJRT device two ways, as the dynamo
runner's torchxla_trace_once and torchxla_trace_everytime did:
  - trace once: torch.compile(backend="openxla"); dynamo captures the graph on the XLA
    device, XLA compiles it once and each call replays the compiled executable;
  - trace every time: lazy tensors; each call records the graph again, and the sync
    hashes it to find the compiled executable in XLA's cache.
Speedup is eager's median latency over the way's, eager being the same model on the CPU
in the same process. tracebench's lazy_trace_once and lazy_trace_everytime run in their
own process on the same weights (--weights, the state dict saved here) and batch size.
Prints the seed's table with both sides:

    build-xla/venv/bin/python bench/torch_xla_peer.py --tracebench build/tracebench

(make bench-xla-peer makes the venv: torch 2.9 and torch_xla 2.9 from PyPI.)
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vs_python import tracebench_missing  # noqa: E402

MODELS = ["resnet18", "resnet50", "resnext50_32x4d", "alexnet", "mobilenet_v2", "mnasnet1_0",
          "squeezenet1_1", "vgg16"]
TRACEBENCH_BACKENDS = ["lazy_trace_once", "lazy_trace_everytime"]


def median_seconds(call, warmup, repeat):
    for _ in range(warmup):
        call()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def torch_xla_speedups(args, model_name, weights):
    """(eager ms, trace-once speedup, trace-every-time speedup) for one model."""
    import torch
    import torch_xla
    import torchvision

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    model = getattr(torchvision.models, model_name)().eval()
    torch.save(model.state_dict(), weights)  # tracebench loads these with --weights
    x = torch.randn(args.batch_size, 3, 224, 224)
    device = torch_xla.device()
    xla_model = getattr(torchvision.models, model_name)().eval().to(device)
    xla_model.load_state_dict(model.state_dict())
    xla_x = x.to(device)
    compiled = torch.compile(xla_model, backend="openxla")

    def every_time():
        out = xla_model(xla_x)
        torch_xla.sync()
        return out.cpu()

    def once():
        return compiled(xla_x).cpu()

    with torch.no_grad():
        eager = median_seconds(lambda: model(x), args.warmup, args.repeat)
        # Each way's result must be the model's: a fast wrong answer is no speedup.
        for name, call in (("trace once", once), ("trace every time", every_time)):
            difference = (call() - model(x)).abs().max().item()
            if not difference < 1e-2:
                raise RuntimeError(f"torch_xla {name} differs from eager by {difference}")
        trace_once = median_seconds(once, args.warmup, args.repeat)
        trace_every_time = median_seconds(every_time, args.warmup, args.repeat)
    return eager * 1e3, eager / trace_once, eager / trace_every_time


def tracebench_speedups(args, model_name, weights, scratch):
    """backend -> speedup over eager, from tracebench's JSON report."""
    report = os.path.join(scratch, model_name + ".json")
    command = [args.tracebench, "--performance", "--only", model_name,
               "--backend", ",".join(TRACEBENCH_BACKENDS), "--weights", weights,
               "--batch-size", str(args.batch_size), "--threads", str(args.threads),
               "--warmup", str(args.warmup), "-n", str(args.repeat), "--json", report]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise RuntimeError("tracebench: " + (lines[-1] if lines else "no output"))
    with open(report) as file:
        rows = json.load(file)["rows"]
    return {row["backend"]: (row["speedup"] if row["status"] == "pass" else row["status"])
            for row in rows}


def cell(value):
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def geomean(values):
    numbers = [v for v in values if isinstance(v, float) and v > 0]
    return math.exp(sum(math.log(v) for v in numbers) / len(numbers)) if numbers else math.nan


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tracebench", default="build/tracebench")
    parser.add_argument("--models", nargs="+", default=MODELS)
    parser.add_argument("--batch-size", type=int, default=1)
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("-n", "--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1337)
    args = parser.parse_args()
    os.environ.setdefault("PJRT_DEVICE", "CPU")
    try:
        import torch_xla
    except ImportError as error:
        print(f"torch_xla_peer.py: error: {sys.executable} cannot import torch_xla ({error}); "
              "run it with build-xla/venv/bin/python (make bench-xla-peer)", file=sys.stderr)
        return 2
    missing = tracebench_missing(args.tracebench, "torch_xla_peer.py")
    if missing:
        print(missing, file=sys.stderr)
        return 2

    import torch
    print(f"torch {torch.__version__}, torch_xla {torch_xla.__version__} on PJRT "
          f"{os.environ['PJRT_DEVICE']}; batch {args.batch_size}, {args.threads} threads, "
          f"medians of {args.repeat} calls; speedup over eager in the same process")
    columns = ["XLA (trace once)", "XLA (trace everytime)"] + TRACEBENCH_BACKENDS
    print(f"{'Model':<18}{'eager ms':>10}" + "".join(f"{c:>23}" for c in columns))
    table = {c: [] for c in columns}
    with tempfile.TemporaryDirectory(prefix="torch_xla_peer.") as scratch:
        for model_name in args.models:
            weights = os.path.join(scratch, model_name + ".weights.pt")
            try:
                eager_ms, once, every_time = torch_xla_speedups(args, model_name, weights)
                ours = tracebench_speedups(args, model_name, weights, scratch)
            except Exception as error:  # one model's failure must not end the table
                print(f"{model_name:<18}failed: {str(error).splitlines()[0]}", flush=True)
                continue
            values = [once, every_time] + [ours.get(b, "no row") for b in TRACEBENCH_BACKENDS]
            for column, value in zip(columns, values):
                table[column].append(value)
            print(f"{model_name:<18}{eager_ms:>10.2f}" + "".join(f"{cell(v):>23}" for v in values),
                  flush=True)
    print(f"{'geomean':<18}{'':>10}" + "".join(f"{cell(geomean(table[c])):>23}" for c in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
