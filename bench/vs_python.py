#!/usr/bin/python3
"""A tracebench backend against what a Python user runs, on the same LibTorch and weights.

For each model, blocks of timed samples alternate between a tracebench process and
a Python process, a few rounds each, so that drift in machine load hits both sides
alike; each side's statistic is the median over all its samples. Both sides run
the same weights: Python's torchvision model (seeded) saves its state dict, and
tracebench loads it with --weights. The two models torchvision lacks (BERT_pytorch,
timm_vision_transformer) come from tracebench: it saves its `ofi` module of the model
(--save-optimized, seeded weights), Python loads that file, and both sides then time the
same graph of the same weights. Prints per model the C++ and Python medians
and their ratio (C++ / Python: at or below 1.0 means C++ is not slower), then the
geomean of the ratios.

    /usr/bin/python3 bench/vs_python.py [--batch-size 1] [--threads 2] ...
        tracebench eager against Python eager (the default)
    /usr/bin/python3 bench/vs_python.py --python-recipe ofi --backend auto
        tracebench's auto against optimize_for_inference(freeze(trace(m))) (make bench-backends)
    build-torch2/venv/bin/python bench/vs_python.py --tracebench build-torch2/cmake/tracebench \
        --python-recipe compile --backend auto
        the 2.x build's auto against torch.compile(mode="max-autotune-no-cudagraphs") with
        inductor's freezing, on PyTorch 2.x (make bench-compile)
"""

import argparse
import importlib.util
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

TORCHVISION_MODELS = ["resnet18", "resnet50", "resnext50_32x4d", "alexnet", "vgg16",
                      "mobilenet_v2", "mnasnet1_0", "squeezenet1_1"]
MODELS = TORCHVISION_MODELS + ["BERT_pytorch", "timm_vision_transformer"]


def saved_module_inputs(args):
    """Inputs of the shapes and dtypes `tracebench list --json` gives, at --batch-size.

    Integer inputs (BERT's token and segment ids) are ones, valid ids for any vocabulary;
    the time a dense model takes does not depend on their values.
    """
    import torch

    dtypes = {"Float": torch.float32, "Long": torch.int64, "Int": torch.int32}
    inputs = []
    for spec in json.loads(args.input_specs):
        shape = [args.batch_size] + spec["shape"][1:]
        dtype = dtypes[spec["dtype"]]
        inputs.append(torch.randn(shape) if dtype.is_floating_point
                      else torch.ones(shape, dtype=dtype))
    return inputs


def loaded_model_and_inputs(args):
    """A model tracebench saved (--save-optimized), which Python then optimizes itself."""
    import torch

    model = torch.jit.load(args.saved_module).eval()
    return model, saved_module_inputs(args)


def torchvision_model_and_inputs(args):
    import torch
    import torchvision

    torch.manual_seed(args.seed)
    model = getattr(torchvision.models, args.worker)().eval()
    if not os.path.exists(args.weights):
        torch.save(model.state_dict(), args.weights)  # tracebench loads these with --weights
    # `tracebench list` gives every one of the eight a single Bx3x224x224 float32 input.
    return model, [torch.randn(args.batch_size, 3, 224, 224)]


def compiled_with_inductor(model):
    """torch.compile as a 2.x user tunes it for CPU inference: inductor's freezing
    (weights folded into the graph, oneDNN's prepacked convolutions and linears) and
    max-autotune's GEMM template search. It compiles on the first call, among the
    warm-up calls; inductor's on-disk cache serves the later processes."""
    import torch
    import torch._inductor.config

    if not hasattr(torch, "compile"):
        raise SystemExit(f"torch {torch.__version__} has no torch.compile; run this with "
                         "PyTorch 2.x's python (make torch2-env: build-torch2/venv/bin/python)")
    # As tracebench's torch_compile worker does: on a CPU where inductor vectorizes, its
    # kernels need libtorch's symbols global to load.
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    from runtime_worker import inductor_kernels_find_libtorch

    inductor_kernels_find_libtorch(torch)
    torch._inductor.config.freezing = True
    return torch.compile(model, mode="max-autotune-no-cudagraphs")


def python_samples(args):
    """Runs in a child process, as tracebench does: one fresh process per block."""
    import torch

    torch.set_num_threads(args.threads)
    model, x = (loaded_model_and_inputs(args) if args.saved_module
                else torchvision_model_and_inputs(args))
    # Mirrors src/performance/performance.cpp: NoGradGuard (not InferenceMode) and
    # parameters that do not require grad.
    for tensor in model.parameters():
        tensor.requires_grad_(False)
    samples = []
    with torch.no_grad():
        if args.python_recipe == "ofi":  # what a Python user gets in three lines
            traced = model if args.saved_module else torch.jit.trace(model, tuple(x))
            model = torch.jit.optimize_for_inference(torch.jit.freeze(traced))
        elif args.python_recipe == "compile":  # PyTorch 2.x's own answer
            model = compiled_with_inductor(model)
        # tracebench calls the model warmup + 2 times before sampling (a timed first
        # call, --warmup calls, a memory-measuring call), once for the eager baseline
        # and once for the A/A twin that `--backend eager` adds.
        for _ in range(2 * (args.warmup + 2)):
            model(*x)
        for _ in range(args.repeat):
            start = time.perf_counter()  # monotonic, like tracebench's steady_clock
            for _ in range(args.iterations_per_run):
                model(*x)
            samples.append((time.perf_counter() - start) / args.iterations_per_run)
    return {"samples_s": samples, "threads": torch.get_num_threads()}


def child_environment():
    # Debian's LibTorch calls OpenBLAS (pthread build) for some ops, and OpenBLAS
    # keeps a worker per core of its own that spins in sched_yield between calls:
    # with --threads = nproc that is one busy thread more than cores, and a sample
    # that loses the race takes 2-5x longer. Both sides get the same setting.
    # glibc's malloc backs large blocks with transparent huge pages when asked
    # (Debian's kernel gives them only on request): without it, a model's speed
    # depends on where its memory happens to land, which differs between the
    # two processes (resnext50_32x4d: C++ 121-127 ms with 4 KiB pages, 93-107 ms
    # with huge pages). Both sides get the same setting; override to compare.
    return dict(os.environ,
                OPENBLAS_NUM_THREADS=os.environ.get("OPENBLAS_NUM_THREADS", "1"),
                GLIBC_TUNABLES=os.environ.get("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1"))


def cpu_seconds():
    """(CPU seconds busy on the whole machine, CPU seconds of our finished children)."""
    with open("/proc/stat") as file:
        ticks = [int(field) for field in file.readline().split()[1:]]
    busy = sum(ticks) - ticks[3] - ticks[4]  # less idle and iowait
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return busy / os.sysconf("SC_CLK_TCK"), children.ru_utime + children.ru_stime


# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
T_975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def ratio_interval(round_ratios):
    """95% confidence interval of the C++/Python ratio from the per-round ratios.

    Each round pairs two fresh processes, and where a process's memory lands moves its
    speed by more than a round's samples can average out, so the rounds, not the
    samples, are the independent observations: a t interval on their log ratios.
    """
    if len(round_ratios) < 2:
        return math.nan, math.nan
    logs = [math.log(r) for r in round_ratios]
    t = T_975[min(len(logs) - 1, len(T_975)) - 1]
    half = t * statistics.stdev(logs) / math.sqrt(len(logs))
    center = statistics.mean(logs)
    return math.exp(center - half), math.exp(center + half)


def tracebench_missing(path, script):
    """The error line for a bench script whose --tracebench binary is not there, or None."""
    if os.access(path, os.X_OK):
        return None
    return (f"{script}: error: no tracebench binary at {path}; run `make build` or pass "
            "--tracebench PATH")


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


def weights_file(scratch, model):
    return os.path.join(scratch, model + ".weights.pt")


def saved_module_file(scratch, model):
    return os.path.join(scratch, model + ".ofi.pt")


def common_flags(args):
    """The flags both sides take alike."""
    return ["--batch-size", str(args.batch_size), "--threads", str(args.threads),
            "--warmup", str(args.warmup), "--iterations-per-run", str(args.iterations_per_run),
            "--seed", str(args.seed)]


def model_flags(model, scratch):
    """How tracebench gets the same weights as Python: torchvision's state dict, or
    (models Python loads from tracebench's file) the same seed."""
    return ["--weights", weights_file(scratch, model)] if model in TORCHVISION_MODELS else []


def save_ofi_module(args, model, scratch):
    """Has tracebench save its ofi module of `model` (with --weights where they exist)."""
    command = ([args.tracebench, "--performance", "--only", model, "--backend", "ofi", "-n", "1",
                "--save-optimized", saved_module_file(scratch, model)]
               + model_flags(model, scratch) + common_flags(args))
    done = subprocess.run(command, capture_output=True, text=True, env=child_environment())
    if done.returncode != 0 or not os.path.exists(saved_module_file(scratch, model)):
        raise RuntimeError("tracebench --save-optimized: " + last_line(done.stderr or done.stdout))


def save_module_for_python(args, model, scratch, input_specs):
    """tracebench's ofi module of a model torchvision lacks, for Python to load."""
    if args.python_recipe != "ofi":
        raise RuntimeError("Python runs this model from tracebench's saved graph, so only "
                           "--python-recipe ofi compares it")
    save_ofi_module(args, model, scratch)
    return input_specs[model]


def run_python(args, model, scratch, input_specs=None):
    command = [sys.executable, os.path.abspath(__file__), "--worker", model,
               "--python-recipe", args.python_recipe, "--weights", weights_file(scratch, model),
               "--repeat", str(args.repeat)] + common_flags(args)
    if input_specs:
        command += ["--saved-module", saved_module_file(scratch, model),
                    "--input-specs", json.dumps(input_specs)]
    done = subprocess.run(command, capture_output=True, text=True, env=child_environment())
    if done.returncode != 0:
        raise RuntimeError("python: " + last_line(done.stderr))
    result = json.loads(done.stdout)
    if result["threads"] != args.threads:
        raise RuntimeError(f"python ran {result['threads']} threads, not {args.threads}")
    return result["samples_s"]


def run_tracebench(args, model, scratch):
    report = os.path.join(scratch, model + ".json")
    # Blocked: the backend's samples follow each other as the Python process's do;
    # interleaved with eager's calls, each call would find the other's weights in
    # the caches (resnext50_32x4d's ofi, one sitting: C++/Python 1.23 interleaved,
    # 1.01 blocked).
    command = ([args.tracebench, "--performance", "--only", model, "--backend", args.backend,
                "--auto-tolerance", args.auto_tolerance, "-n", str(args.repeat),
                "--sample-order", "blocked", "--json", report]
               + model_flags(model, scratch) + common_flags(args))
    done = subprocess.run(command, capture_output=True, text=True, env=child_environment())
    if done.returncode != 0:
        raise RuntimeError("tracebench: " + last_line(done.stderr or done.stdout))
    with open(report) as file:
        data = json.load(file)
    row = next(row for row in data["rows"] if row["backend"] == args.backend)
    if row["status"] != "pass":
        raise RuntimeError(f"tracebench: {row['status']}: {row['error']}")
    if data["environment"]["torch_threads"] != args.threads:
        raise RuntimeError(f"tracebench ran {data['environment']['torch_threads']} threads")
    chosen[model] = row.get("chosen", "")
    candidates[model] = auto_candidates(row)
    # For eager, the baseline's samples, not its A/A twin's (`samples_s`), so that
    # both sides contribute --repeat samples per block.
    return row["eager_samples_s"] if args.backend == "eager" else row["samples_s"]


chosen = {}  # model -> the backend auto picked, as tracebench's row says
candidates = {}  # model -> what auto timed and dropped, in the last round's row


def auto_candidates(row):
    """auto's search as its row keeps it: each timed candidate's median and why
    the others were dropped, so a table shows why the winner won ("" elsewhere)."""
    prefix = "auto_candidate_ms."
    timed = [f"{name[len(prefix):]} {ms:.2f} ms" for name, ms in sorted(row["counters"].items())
             if name.startswith(prefix)]
    dropped = [warning["message"].removeprefix(row["backend"] + ": ") for warning in row["warnings"]
               if warning["code"] == "auto_dropped"]
    return "; ".join(filter(None, [", ".join(timed)] + [f"dropped: {why}" for why in dropped]))


def measure(args, model, scratch, input_specs):
    specs = (None if model in TORCHVISION_MODELS
             else save_module_for_python(args, model, scratch, input_specs))
    cpp, python = [], []
    ratios = []
    for round_index in range(args.interleave):
        # Swap who goes first every round: a side that always ran first would
        # always meet the same point of a load cycle.
        sides = [("python", python), ("cpp", cpp)]
        if round_index % 2:
            sides.reverse()
        block = {}
        for side, pooled in sides:
            samples = (run_python(args, model, scratch, specs) if side == "python"
                       else run_tracebench(args, model, scratch))
            pooled.extend(samples)
            block[side] = statistics.median(samples)
        ratios.append(block["cpp"] / block["python"])
    return statistics.median(cpp), statistics.median(python), ratios


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tracebench", default="build/tracebench")
    parser.add_argument("--models", nargs="+", default=MODELS)
    parser.add_argument("--batch-size", type=int, default=1)
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))  # = nproc
    parser.add_argument("--repeat", type=int, default=15, help="timed samples per block")
    parser.add_argument("--interleave", type=int, default=5, metavar="ROUNDS",
                        help="rounds of (Python block, tracebench block) per model")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--iterations-per-run", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1337)
    parser.add_argument("--backend", default="eager", help="the tracebench backend timed")
    parser.add_argument("--auto-tolerance", default="exact", choices=["exact", "bf16", "int8"])
    parser.add_argument("--python-recipe", default="eager", choices=["eager", "ofi", "compile"],
                        help="Python's side: the model as is, freeze + optimize_for_inference, "
                             "or torch.compile with inductor's freezing (PyTorch 2.x)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--weights", help=argparse.SUPPRESS)
    parser.add_argument("--saved-module", help=argparse.SUPPRESS)
    parser.add_argument("--input-specs", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        print(json.dumps(python_samples(args)))
        return 0
    if importlib.util.find_spec("torchvision") is None:
        print(f"vs_python.py: error: {sys.executable} cannot import torchvision; "
              "run with /usr/bin/python3 (apt-get install python3-torchvision)", file=sys.stderr)
        return 2
    missing = tracebench_missing(args.tracebench, "vs_python.py")
    if missing:
        print(missing, file=sys.stderr)
        return 2

    print(f"tracebench --backend {args.backend} (--auto-tolerance {args.auto_tolerance}) against "
          f"Python {args.python_recipe}")
    print(f"batch {args.batch_size}, {args.threads} threads, {args.repeat} samples x "
          f"{args.interleave} rounds per side, OPENBLAS_NUM_THREADS="
          f"{child_environment()['OPENBLAS_NUM_THREADS']}, GLIBC_TUNABLES="
          f"{child_environment()['GLIBC_TUNABLES']}, load average {os.getloadavg()[0]:.2f} at start")
    # "others": cores kept busy by processes other than ours while a model ran; on a
    # shared machine it tells a clean figure from one taken next to a compiler.
    print(f"{'model':<24}{'C++ ms':>10}{'Python ms':>11}{'C++/Py':>8}{'95% CI':>14}{'others':>8}"
          "   per-round ratios")
    ratios = []
    listed = subprocess.run([args.tracebench, "list", "--json"], capture_output=True, text=True)
    input_specs = {entry["name"]: entry["inputs"] for entry in json.loads(listed.stdout)["models"]}
    with tempfile.TemporaryDirectory(prefix="vs_python.") as scratch:
        for model in args.models:
            start_wall, (start_busy, start_ours) = time.monotonic(), cpu_seconds()
            try:
                cpp, python, round_ratios = measure(args, model, scratch, input_specs)
            except Exception as error:  # one model's failure must not end the run
                print(f"{model:<24}failed: {error}", flush=True)
                continue
            busy, ours = cpu_seconds()
            others = (busy - start_busy - (ours - start_ours)) / (time.monotonic() - start_wall)
            ratio = cpp / python
            ratios.append(ratio)
            spread = " ".join(f"{r:.3f}" for r in round_ratios)
            picked = f"   ({args.backend}: {chosen[model]})" if chosen.get(model) else ""
            low, high = ratio_interval(round_ratios)
            print(f"{model:<24}{cpp * 1e3:>10.2f}{python * 1e3:>11.2f}{ratio:>8.3f}"
                  f"{f'{low:.2f}-{high:.2f}':>14}{others:>8.2f}   {spread}{picked}", flush=True)
            if candidates.get(model):
                print(f"{'':<24}candidates: {candidates[model]}", flush=True)
    if ratios:
        print(f"{'geomean':<24}{'':>10}{'':>11}{geomean(ratios):>8.3f}")
    print(f"load average {os.getloadavg()[0]:.2f} at end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
