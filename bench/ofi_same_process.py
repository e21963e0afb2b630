#!/usr/bin/python3
"""tracebench's ofi graph against Python's freeze + optimize_for_inference, in one process.

bench/vs_python.py times the two sides in alternated processes. On the 2-core development
machine, one process runs the same graph up to 20% faster or slower than the next one. So a
per-model bound of 3% needs about 40 rounds per model there (docs/performance.md). This script
takes that spread out of the comparison. For each model, a fresh Python process loads the
module tracebench's `ofi` wrote (--save-optimized, on the same weights; its frozen graph,
finished by the oneDNN step that the file cannot hold) and makes its own freeze +
optimize_for_inference module. It checks that the two compute the same, then times
them in alternated blocks, order swapped every round. Both run on the same interpreter with the
same memory, so what is left is the difference between the two graphs. The harness's own cost
per call is measured apart (`make bench`: about 115 ns per sample).

    /usr/bin/python3 bench/ofi_same_process.py --tracebench build/tracebench [--rounds 20]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import vs_python  # bench/: the models, weights, inputs and environment vs_python.py uses


def python_ofi(model, x, is_saved_module):
    import torch

    traced = model if is_saved_module else torch.jit.trace(model, tuple(x))
    return torch.jit.optimize_for_inference(torch.jit.freeze(traced))


def block_seconds(module, x, repeat):
    """The median of `repeat` timed calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        module(*x)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def worker(args):
    """In a fresh process: per-round (tracebench, Python) medians of one model."""
    import torch

    torch.set_num_threads(args.threads)
    is_saved = args.worker not in vs_python.TORCHVISION_MODELS
    if is_saved:  # the model torchvision lacks: Python re-optimizes tracebench's own graph
        model, x = torch.jit.load(args.saved_module).eval(), vs_python.saved_module_inputs(args)
    else:
        model, x = vs_python.torchvision_model_and_inputs(args)
    with torch.no_grad():
        theirs = python_ofi(model, x, is_saved)
        # TorchScript cannot save oneDNN's packed weights: where ofi's graph holds them,
        # tracebench saves its frozen graph from before that step, and the row names the
        # step that finishes it after loading (optimize_for_inference; its passes find
        # nothing more to do in a graph tracebench saved finished).
        ours = torch.jit.optimize_for_inference(torch.jit.load(args.saved_module).eval())
        difference = (ours(*x) - theirs(*x)).abs().max().item()
        if not difference < 1e-3:
            raise SystemExit(f"tracebench's ofi module differs from Python's by {difference}")
        for module in (ours, theirs):
            for _ in range(args.warmup):
                module(*x)
        rounds = []
        for index in range(args.rounds):
            order = [("tracebench", ours), ("python", theirs)]
            if index % 2:
                order.reverse()
            medians = {side: block_seconds(module, x, args.repeat) for side, module in order}
            rounds.append([medians["tracebench"], medians["python"]])
    return {"rounds": rounds, "max_abs_difference": difference}


def save_tracebench_module(args, model, scratch, input_specs):
    """tracebench's ofi module of `model`, on torchvision's weights where torchvision has it."""
    if vs_python.model_flags(model, scratch):  # the seeded weights, before tracebench reads them
        run_worker(args, model, scratch, input_specs, ["--weights-only"])
    vs_python.save_ofi_module(args, model, scratch)


def run_worker(args, model, scratch, input_specs, extra):
    command = [sys.executable, os.path.abspath(__file__), "--worker", model,
               "--weights", vs_python.weights_file(scratch, model),
               "--saved-module", vs_python.saved_module_file(scratch, model),
               "--input-specs", json.dumps(input_specs.get(model, [])),
               "--rounds", str(args.rounds), "--repeat", str(args.repeat)]
    command += vs_python.common_flags(args) + extra
    done = subprocess.run(command, capture_output=True, text=True,
                          env=vs_python.child_environment())
    if done.returncode != 0:
        raise RuntimeError("python: " + vs_python.last_line(done.stderr))
    return json.loads(done.stdout) if done.stdout.strip() else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tracebench", default="build/tracebench")
    parser.add_argument("--models", nargs="+", default=vs_python.MODELS)
    parser.add_argument("--batch-size", type=int, default=1)
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--rounds", type=int, default=20, help="alternated blocks per side")
    parser.add_argument("--repeat", type=int, default=10, help="timed calls per block")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--iterations-per-run", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1337)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--weights-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--weights", help=argparse.SUPPRESS)
    parser.add_argument("--saved-module", help=argparse.SUPPRESS)  # tracebench's ofi module
    parser.add_argument("--input-specs", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker and args.weights_only:
        vs_python.torchvision_model_and_inputs(args)  # writes the seeded state dict
        return 0
    if args.worker:
        print(json.dumps(worker(args)))
        return 0
    if not os.access(args.tracebench, os.X_OK):
        print(f"ofi_same_process.py: error: no tracebench binary at {args.tracebench}; "
              "run `make build` or pass --tracebench PATH", file=sys.stderr)
        return 2

    environment = vs_python.child_environment()
    print(f"tracebench's ofi module against Python's freeze+ofi, one process per model: batch "
          f"{args.batch_size}, {args.threads} threads, {args.rounds} rounds of {args.repeat} calls "
          f"per side, OPENBLAS_NUM_THREADS={environment['OPENBLAS_NUM_THREADS']}, "
          f"load average {os.getloadavg()[0]:.2f} at start")
    print(f"{'model':<24}{'tracebench ms':>14}{'Python ms':>11}{'ratio':>8}{'95% CI':>14}"
          f"{'max |diff|':>12}")
    listed = subprocess.run([args.tracebench, "list", "--json"], capture_output=True, text=True)
    input_specs = {entry["name"]: entry["inputs"] for entry in json.loads(listed.stdout)["models"]}
    ratios = []
    with tempfile.TemporaryDirectory(prefix="ofi_same_process.") as scratch:
        for model in args.models:
            try:
                save_tracebench_module(args, model, scratch, input_specs)
                result = run_worker(args, model, scratch, input_specs, [])
            except Exception as error:  # one model's failure must not end the run
                print(f"{model:<24}failed: {error}", flush=True)
                continue
            ours = statistics.median(r[0] for r in result["rounds"])
            theirs = statistics.median(r[1] for r in result["rounds"])
            round_ratios = [r[0] / r[1] for r in result["rounds"]]
            ratio = vs_python.geomean(round_ratios)
            ratios.append(ratio)
            low, high = vs_python.ratio_interval(round_ratios)
            print(f"{model:<24}{ours * 1e3:>14.2f}{theirs * 1e3:>11.2f}{ratio:>8.3f}"
                  f"{f'{low:.3f}-{high:.3f}':>14}{result['max_abs_difference']:>12.1e}", flush=True)
    if ratios:
        print(f"{'geomean':<24}{'':>14}{'':>11}{vs_python.geomean(ratios):>8.3f}")
    print(f"load average {os.getloadavg()[0]:.2f} at end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
