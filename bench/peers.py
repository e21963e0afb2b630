"""tracebench against the runtimes users pick instead, on the same weights (make bench-peers).

For each model and batch size, tracebench first exports the model once for OpenVINO (IR) and
ONNX Runtime (ONNX) with --save-optimized; then, in rounds whose order flips each time, fresh
processes time it five ways, so that drift in machine load hits every side alike:
  - tracebench --backend auto (its fastest candidate, the peers included);
  - tracebench --backend openvino, and --backend onnxruntime (its Python worker);
  - tracebench --backend openvino with --sample-order interleaved ("openvino mixed"): each of
    its calls follows one of eager's, so OpenVINO's TBB threads and LibTorch's OpenMP threads
    take turns in one process, as in every interleaved run;
  - OpenVINO's own Python API on the saved IR, with the settings tracebench recorded;
  - ONNX Runtime's own Python API on the saved ONNX file, likewise;
each a block of --repeat timed calls after warm-up, tracebench's with --sample-order blocked
(its calls follow each other, as in a process that runs only that model). Each side's figure is
the median over all its samples. Prints per model the medians (ms per call), then
  - auto / best API: auto against the faster runtime as its users call it (<= 1: auto is not
    slower than the fastest single runtime);
  - ov / ov API and ort / ort API: each runtime through tracebench against its own API (the
    seam's cost: 1.00 is none; onnxruntime runs in tracebench's Python worker);
with 95% t intervals over the rounds, and the geomeans of the ratios; "auto ran" names what auto
chose in each of its processes, with counts where the rounds disagreed.

Below float32 (--sides from PRECISION_SIDES, make bench-peers' second run), the same for
  - tracebench's openvino_bf16 against OpenVINO's API on the float32 IR at OpenVINO's own default
    precision (no INFERENCE_PRECISION_HINT: bf16 where the CPU has it), as its users call it;
  - tracebench's openvino_int8 and onnxruntime_int8 against each runtime's API on the very
    quantized model tracebench ran (the same calibration data, by construction);
  - tracebench's auto within --auto-tolerance ("auto budget") against OpenVINO's default;
each tracebench cell with its accuracy cost against float32 (sqnr dB) beside it.

    build-peers/venv/bin/python bench/peers.py --tracebench build/tracebench \\
        [--models resnet18 ...] [--batch-sizes 1 8] [--rounds 3] [--repeat 20] [--threads 2]
        [--sides openvino "openvino API"] [--auto-tolerance sqnr=30]
"""

import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vs_python import (MODELS, child_environment, geomean, last_line, ratio_interval,  # noqa: E402
                       tracebench_missing)

SIDES = ["auto", "openvino", "openvino mixed", "onnxruntime", "openvino API", "onnxruntime API"]
PRECISION_SIDES = ["auto budget", "openvino_bf16", "openvino default API", "openvino_int8",
                   "openvino_int8 API", "onnxruntime_int8", "onnxruntime_int8 API"]
RATIOS = [("auto / best API", "auto", ("openvino API", "onnxruntime API")),
          ("ov / ov API", "openvino", ("openvino API",)),
          ("ov mixed / ov API", "openvino mixed", ("openvino API",)),
          ("ort / ort API", "onnxruntime", ("onnxruntime API",)),
          ("auto budget / ov default API", "auto budget", ("openvino default API",)),
          ("ov_bf16 / ov default API", "openvino_bf16", ("openvino default API",)),
          ("ov_int8 / ov_int8 API", "openvino_int8", ("openvino_int8 API",)),
          ("ort_int8 / ort_int8 API", "onnxruntime_int8", ("onnxruntime_int8 API",))]
# What each API side runs: the file tracebench saved for a backend (--save-optimized), and for
# OpenVINO whether its recorded precision hint is kept (False: OpenVINO's own default).
API_FILES = {"openvino API": ("openvino", True), "openvino default API": ("openvino", False),
             "onnxruntime API": ("onnxruntime", True), "openvino_int8 API": ("openvino_int8", True),
             "onnxruntime_int8 API": ("onnxruntime_int8", True)}


def api_inputs(shapes_and_types):
    """Float inputs drawn at random; integer ones (BERT's token and segment ids) are ones,
    valid ids for any vocabulary, as the time a dense model takes does not depend on them."""
    import numpy as np

    generator = np.random.default_rng(0)
    return [generator.standard_normal(shape).astype(dtype) if np.dtype(dtype).kind == "f"
            else np.ones(shape, dtype=dtype) for shape, dtype in shapes_and_types]


def openvino_api(model, settings, threads, keep_precision=True):
    """The IR on OpenVINO's CPU plugin with tracebench's recorded settings, as its users call it;
    without `keep_precision`, at OpenVINO's own default inference precision."""
    import openvino as ov

    core = ov.Core()
    config = {
        "PERFORMANCE_HINT": settings["PERFORMANCE_HINT"],
        "NUM_STREAMS": int(settings["NUM_STREAMS"]),
        "INFERENCE_NUM_THREADS": threads,
        "ENABLE_CPU_PINNING": settings["ENABLE_CPU_PINNING"] == "YES",
    }
    if keep_precision:
        config["INFERENCE_PRECISION_HINT"] = settings["INFERENCE_PRECISION_HINT"]
    compiled = core.compile_model(core.read_model(model), "CPU", config)
    request = compiled.create_infer_request()
    inputs = api_inputs([(list(port.shape), port.element_type.to_dtype())
                         for port in compiled.inputs])
    return lambda: request.infer(inputs)


def onnxruntime_api(model, threads):
    """The ONNX file on ONNX Runtime's CPU provider, every graph optimization, as its users
    call it."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    dtypes = {"tensor(float)": "float32", "tensor(int64)": "int64", "tensor(int32)": "int32",
              "tensor(bool)": "bool"}
    ports = session.get_inputs()
    inputs = api_inputs([(port.shape, dtypes[port.type]) for port in ports])
    feeds = {port.name: value for port, value in zip(ports, inputs)}
    return lambda: session.run(None, feeds)


def api_samples(args):
    """Runs in a fresh process: one block of the runtime's own API."""
    if args.settings:  # an OpenVINO IR
        with open(args.settings) as file:
            call = openvino_api(args.model_file, json.load(file)["settings"], args.threads,
                                keep_precision=API_FILES[args.worker][1])
    else:
        call = onnxruntime_api(args.model_file, args.threads)
    for _ in range(args.warmup + 2):  # tracebench's: a timed first call, --warmup, memory
        call()
    samples = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return samples


def run(command):
    done = subprocess.run(command, capture_output=True, text=True, env=child_environment())
    if done.returncode != 0:
        raise RuntimeError(f"{os.path.basename(command[0])}: " +
                           last_line(done.stderr or done.stdout))
    return done


def tracebench_flags(args, model, batch):
    return ["--only", model, "--batch-size", str(batch), "--threads", str(args.threads),
            "--warmup", str(args.warmup), "--seed", str(args.seed)]


def export_for_apis(args, model, batch, scratch):
    """The files tracebench ran for each API side's backend (an IR with its settings, or an ONNX
    file), at this batch size and seed: the int8 ones are the quantized models it calibrated."""
    backends = sorted({API_FILES[side][0] for side in args.sides if side in API_FILES})
    if not backends:
        return {}
    run([args.tracebench, "--performance", "--backend", ",".join(backends), "-n", "1",
         "--save-optimized", scratch] + tracebench_flags(args, model, batch))
    exported = {}
    for side, (backend, _) in API_FILES.items():
        stem = os.path.join(scratch, f"{model}.{backend}")
        exported[side] = ([stem + ".xml", "--settings", stem + ".settings.json"]
                          if backend.startswith("openvino") else [stem + ".onnx"])
    return exported


def tracebench_side(args, side):
    """The backend a tracebench side runs and its own flags."""
    if side == "auto budget":
        return "auto", ["--auto-tolerance", args.auto_tolerance]
    backend, _, mixed = side.partition(" ")
    return backend, ["--sample-order", "interleaved" if mixed else "blocked"]


def cost(row):
    """What the row's precision cost against float32 ("int8 27.1dB"), "" for a float32 row."""
    ran = row.get("ran_precision", "")
    if ran in ("", "fp32"):
        return ""
    sqnr = row.get("sqnr_db")
    return f"{ran} {sqnr:.1f}dB" if isinstance(sqnr, (int, float)) else ran


def side_samples(args, side, model, batch, scratch, exported, chosen):
    if side.endswith(" API"):
        done = run([sys.executable, os.path.abspath(__file__), "--worker", side,
                    "--threads", str(args.threads), "--repeat", str(args.repeat),
                    "--warmup", str(args.warmup), "--model-file"] + exported[side])
        return json.loads(done.stdout)
    backend, flags = tracebench_side(args, side)
    report = os.path.join(scratch, f"{model}.{backend}.json")
    run([args.tracebench, "--performance", "--backend", backend, "-n", str(args.repeat),
         "--json", report] + flags + tracebench_flags(args, model, batch))
    with open(report) as file:
        row = next(row for row in json.load(file)["rows"] if row["backend"] == backend)
    if row["status"] != "pass":
        raise RuntimeError(f"tracebench --backend {backend}: {row['status']}: {row['error']}")
    if backend == "auto" or cost(row):
        chosen.setdefault(side, []).append(" ".join(filter(None, [row.get("chosen", ""),
                                                                  cost(row)])))
    return row["samples_s"]


def measure(args, model, batch, scratch):
    exported = export_for_apis(args, model, batch, scratch)
    pooled = {side: [] for side in args.sides}
    rounds = []
    chosen = {}
    for round_index in range(args.rounds):
        order = args.sides if round_index % 2 == 0 else list(reversed(args.sides))
        medians = {}
        for side in order:
            samples = side_samples(args, side, model, batch, scratch, exported, chosen)
            pooled[side].extend(samples)
            medians[side] = statistics.median(samples)
        rounds.append(medians)
    return {side: statistics.median(samples) for side, samples in pooled.items()}, rounds, chosen


def choices(picks):
    """What auto ran, once per round: its name when every round agreed, else each with a count
    ("onnxruntime 5, openvino 1"), since a tie between runtimes can go either way."""
    counted = collections.Counter(picks).most_common()
    if len(counted) == 1:
        return counted[0][0]
    return ", ".join(f"{name} {count}" for name, count in counted)


def ratio(medians, numerator, denominators):
    return medians[numerator] / min(medians[side] for side in denominators)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tracebench", default="build/tracebench")
    parser.add_argument("--models", nargs="+", default=MODELS)
    parser.add_argument("--batch-sizes", nargs="+", type=int, default=[1, 8])
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--repeat", type=int, default=20, help="timed calls per block")
    parser.add_argument("--rounds", type=int, default=3, help="blocks per side and model")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1337)
    parser.add_argument("--sides", nargs="+", choices=SIDES + PRECISION_SIDES, default=SIDES,
                        help="time only these (a ratio is printed when both its sides are)")
    parser.add_argument("--auto-tolerance", default="sqnr=30",
                        help="the budget of the 'auto budget' side (tracebench --auto-tolerance)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--model-file", help=argparse.SUPPRESS)
    parser.add_argument("--settings", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        print(json.dumps(api_samples(args)))
        return 0
    try:
        import onnxruntime  # noqa: F401
        import openvino  # noqa: F401
    except ImportError as error:
        print(f"peers.py: error: {error} in {sys.executable}; run it with build-peers/venv/bin/python"
              " (make peers-env)", file=sys.stderr)
        return 2
    missing = tracebench_missing(args.tracebench, "peers.py")
    if missing:
        print(missing, file=sys.stderr)
        return 2

    environment = child_environment()
    print(f"{args.threads} threads, {args.repeat} calls x {args.rounds} rounds per side, "
          f"OPENBLAS_NUM_THREADS={environment['OPENBLAS_NUM_THREADS']}, "
          f"GLIBC_TUNABLES={environment['GLIBC_TUNABLES']}, "
          f"load average {os.getloadavg()[0]:.2f} at start")
    sides = args.sides
    shown = [(name, numerator, denominators) for name, numerator, denominators in RATIOS
             if numerator in sides and set(denominators) <= set(sides)]
    # Each column as wide as its name, and at least as a figure needs.
    width = {name: max(17 if name in sides else 24, len(name) + 2)
             for name in sides + [name for name, _, _ in shown]}
    header = f"{'model':<24}{'batch':>6}" + "".join(f"{side:>{width[side]}}" for side in sides)
    header += "".join(f"{name:>{width[name]}}" for name, _, _ in shown) + "   auto ran; costs"
    side_columns = sum(width[side] for side in sides)
    print(header + "\n" + " " * 30 + "(ms per call, medians)" + " " * (side_columns - 22) +
          "(ratio [95% CI over rounds])")
    ratios = {name: [] for name, _, _ in shown}
    for batch in args.batch_sizes:
        for model in args.models:
            with tempfile.TemporaryDirectory(prefix="peers.") as scratch:
                try:
                    medians, rounds, chosen = measure(args, model, batch, scratch)
                except Exception as error:  # one model's failure must not end the run
                    print(f"{model:<24}{batch:>6}   failed: {error}", flush=True)
                    continue
            line = f"{model:<24}{batch:>6}" + "".join(f"{medians[s] * 1e3:>{width[s]}.2f}"
                                                      for s in sides)
            for name, numerator, denominators in shown:
                value = ratio(medians, numerator, denominators)
                ratios[name].append(value)
                low, high = ratio_interval([ratio(r, numerator, denominators) for r in rounds])
                line += f"{f'{value:.3f} [{low:.2f}, {high:.2f}]':>{width[name]}}"
            ran = [f"{side}: {choices(picks)}" for side, picks in chosen.items()]
            print(line + "   " + "; ".join(ran), flush=True)
    if any(ratios.values()):
        print(f"{'geomean':<30}{'':>{side_columns}}" +
              "".join(f"{geomean(values):>{width[name]}.3f}" for name, values in ratios.items()))
    print(f"load average {os.getloadavg()[0]:.2f} at end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
