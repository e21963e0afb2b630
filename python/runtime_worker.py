"""Runs a model in a Python runtime for tracebench (src/backends/python_worker.h).

Started by a model's child process with the peer runtimes' Python. It reads requests on stdin
and answers on stdout: an 8-byte little-endian length, that many bytes of JSON, then the raw
bytes (C order) of each tensor its "tensors" list describes as {"dtype", "shape"}.

    {"op": "load", "runtime", "model", "threads", "options"}
        -> {"runtime", "version", "language", "settings", "load_seconds"}
    {"op": "run", "calls": N, "outputs": bool, "tensors": inputs}
        -> {"seconds": [one per call], "counters": {name: value}, "tensors": the last call's
            outputs, or []}
    {"op": "quiet"} -> {}
    {"op": "quantize", "model", "output", "per_set", "reduce_range", "tensors": calibration sets}
        -> {"quantized_ops": N convolutions and products in int8, "model_ops": [op types],
            "seconds"}

"counters" holds what a runtime that compiles per input shape has compiled so far ("graphs",
"graph_compile_s"; include/tracebench/counters.h), or nothing.

"quiet" answers once the runtime's threads have stopped spinning after the last calls (ONNX
Runtime's spin for about 40 ms), so that they take no core from whatever else the harness times
next (src/measure/quiet_threads.h). A run answers at once: its threads still spin, as after a
user's call, for the harness's next sample of the same model.

Each call is timed here, around the runtime's own call as its users make it, so moving tensors
between the processes is outside every sample. A failed request answers {"error": "Kind: first
line", "unsupported": bool} and the worker goes on; it ends when stdin closes. Anything the
runtime prints goes to stderr, never into the exchange.
"""

import json
import os
import platform
import struct
import sys
import threading
import time

import numpy as np

LENGTH = struct.Struct("<Q")


class OnnxRuntime:
    """ONNX Runtime's CPU execution provider with every graph optimization, as its users call it."""

    def __init__(self, model, threads, options):
        import onnxruntime as ort

        session_options = ort.SessionOptions()
        session_options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        session_options.intra_op_num_threads = threads
        session_options.inter_op_num_threads = 1
        session_options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        for key, value in options.items():
            session_options.add_session_config_entry(key, str(value))
        self.session = ort.InferenceSession(model, session_options,
                                            providers=["CPUExecutionProvider"])
        # export_onnx.py names the inputs input_0, input_1, ...; an input the graph does not
        # use is not among them.
        self.inputs = [(port.name, int(port.name.rsplit("_", 1)[1]))
                       for port in self.session.get_inputs()]
        self.version = ort.__version__
        self.settings = {
            "providers": ",".join(self.session.get_providers()),
            "graph_optimization_level": "ORT_ENABLE_ALL",
            "intra_op_num_threads": threads,
            "inter_op_num_threads": 1,
            "execution_mode": "ORT_SEQUENTIAL",
            **options,
        }

    name = "ONNX Runtime"
    package = "onnxruntime"  # what is missing when this runtime is not installed

    @staticmethod
    def unsupported(error):
        """Whether loading failed because ONNX Runtime has no kernel for an op of the model."""
        return "NOT_IMPLEMENTED" in str(error)

    def feeds(self, arrays):
        return {name: arrays[index] for name, index in self.inputs}

    def __call__(self, feeds):
        return self.session.run(None, feeds)

    def outputs(self, returned):
        return [np.asarray(array) for array in returned]


def inductor_kernels_find_libtorch(torch):
    """Makes libtorch_cpu's symbols global, as TORCH_USE_RTLD_GLOBAL=1 would. Inductor's CPU
    kernels call ATen's vectorized math (Sleef_expf16_u10: exp on AVX-512) without linking
    libtorch, and PyPI's torch loads it locally: where inductor vectorizes (its check of the CPU
    passes: an Intel Xeon with AMX, 2026-12-05), every kernel with an exp failed to load
    ("undefined symbol: Sleef_expf16_u10"), in a plain `python -c` too."""
    import ctypes

    ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so"),
                mode=ctypes.RTLD_GLOBAL)


class TorchCompile:
    """torch.compile with inductor and its freezing, on the trace made an ExportedProgram's module
    (as the aot_inductor backend makes it); options: "inputs" (the example inputs' file, which
    the compile runs on), "mode", and "dynamic_dim" under --shape-set (the program's dimension
    that changes size; dynamo still compiles again for the shapes it did not expect). Compiling
    happens in the first call, here in the load."""

    name = "torch.compile"
    package = "torch"

    def __init__(self, model, threads, options):
        import torch
        import torch._inductor.config

        import traced_exporter

        inductor_kernels_find_libtorch(torch)

        from torch.utils import _pytree

        torch.set_num_threads(threads)
        torch._inductor.config.freezing = True
        module = torch.jit.load(model).eval()
        example = torch.load(options["inputs"])
        # The harness sends the inputs' tensors flat, depth first: an input that is a tuple,
        # list or dict of tensors (an RNN's (h, c)) is put back together from them.
        self.structure = _pytree.tree_structure(tuple(example))
        self.unflatten = _pytree.tree_unflatten
        with torch.no_grad():
            program = traced_exporter.exported_program(module, example,
                                                       options.get("dynamic_dim"))
            # Without the program's own check of its inputs' sizes: from a batch-1 example
            # torch.export declares batches of 2 and more (traced_exporter.py widens it), and
            # timm's convnext_atto then refused batch 1. The harness checks every shape's outputs.
            graph_module = program.module(check_guards=False)
            self.compiled = torch.compile(graph_module, mode=options["mode"])
            self.compiled(*example)
        self.torch = torch
        self.version = torch.__version__
        # The vector ISA inductor generated code for: its check of the CPU compiles and loads a
        # probe, and where that fails (a timeout under load) its kernels are scalar.
        from torch._inductor import cpu_vec_isa

        isa = cpu_vec_isa.pick_vec_isa()
        self.settings = {"backend": "inductor", "mode": options["mode"], "freezing": True,
                         "threads": torch.get_num_threads(), "vec_isa": str(isa) if isa else "none"}

    def counters(self):
        """Dynamo's distinct graphs so far, the load's included, and the seconds they took."""
        from torch._dynamo import utils

        return {"graphs": utils.counters["stats"]["unique_graphs"],
                "graph_compile_s": sum(utils.compilation_time_metrics.get(
                    "_compile.compile_inner", []))}

    @staticmethod
    def unsupported(error):
        """Whether torch.export cannot capture the model by design (as export_aot_inductor.py)."""
        return type(error).__name__ == "UnsupportedOperatorException"

    def feeds(self, arrays):
        return self.unflatten([self.torch.from_numpy(array) for array in arrays], self.structure)

    def __call__(self, feeds):
        with self.torch.no_grad():
            return self.compiled(*feeds)

    def outputs(self, returned):
        from torch.utils import _pytree

        return [leaf.numpy() for leaf in _pytree.tree_leaves(returned)
                if isinstance(leaf, self.torch.Tensor)]


RUNTIMES = {"onnxruntime": OnnxRuntime, "torch_compile": TorchCompile}


def read_exactly(stream, size):
    data = bytearray(size)
    view = memoryview(data)
    got = 0
    while got < size:
        n = stream.readinto(view[got:])
        if not n:
            raise EOFError
        got += n
    return data


def read_message(stream):
    (length,) = LENGTH.unpack(read_exactly(stream, LENGTH.size))
    header = json.loads(read_exactly(stream, length))
    arrays = []
    for described in header.get("tensors", []):
        dtype = np.dtype(described["dtype"])
        shape = described["shape"]
        size = dtype.itemsize * int(np.prod(shape, dtype=np.int64))
        arrays.append(np.frombuffer(read_exactly(stream, size), dtype=dtype).reshape(shape))
    return header, arrays


def write_message(stream, header, arrays=()):
    arrays = [np.ascontiguousarray(array) for array in arrays]
    header = dict(header, tensors=[{"dtype": array.dtype.name, "shape": list(array.shape)}
                                   for array in arrays])
    body = json.dumps(header).encode()
    stream.write(LENGTH.pack(len(body)))
    stream.write(body)
    for array in arrays:
        stream.write(array.tobytes())
    stream.flush()


def load(request):
    runtime_class = RUNTIMES.get(request["runtime"])
    if runtime_class is None:
        raise ValueError(f"no runtime {request['runtime']} here (known: {', '.join(RUNTIMES)})")
    start = time.perf_counter()
    runtime = runtime_class(request["model"], int(request["threads"]), request.get("options", {}))
    reply = {"runtime": runtime.name, "version": runtime.version,
             "language": f"Python {platform.python_version()}", "settings": runtime.settings,
             "load_seconds": time.perf_counter() - start}
    return runtime, reply


def another_thread_runs():
    """Whether a thread of this process other than the caller is running or runnable."""
    for task in os.listdir("/proc/self/task"):
        if int(task) == threading.get_native_id():
            continue
        try:
            with open(f"/proc/self/task/{task}/stat") as stat:
                line = stat.read()
        except FileNotFoundError:  # the thread ended
            continue
        if line[line.rindex(")") + 2] == "R":
            return True
    return False


def wait_for_quiet_threads():
    """Returns once no other thread of this process runs, or after 100 ms: the rule of
    src/measure/quiet_threads.h."""
    for _ in range(100):
        if not another_thread_runs():
            return
        time.sleep(1e-3)


def run(runtime, request, arrays):
    feeds = runtime.feeds(arrays)
    seconds = []
    returned = None
    for _ in range(int(request["calls"])):
        start = time.perf_counter()
        returned = runtime(feeds)
        seconds.append(time.perf_counter() - start)
    outputs = runtime.outputs(returned) if request.get("outputs") else []
    counters = runtime.counters() if hasattr(runtime, "counters") else {}
    return {"seconds": seconds, "counters": counters}, outputs


# The ops ONNX Runtime and OpenVINO run in int8 when their inputs are quantized.
INT8_COMPUTE_OPS = ("Conv", "ConvTranspose", "MatMul", "Gemm")


def quantize(request, arrays):
    """Static post-training quantization of the ONNX model at request["model"] into
    request["output"], with ONNX Runtime's quantizer as its documentation advises for x86 CPUs:
    QDQ format, uint8 activations and int8 weights, one scale per tensor (per-channel scales hurt
    some depthwise nets: onnxruntime #11415), the full 8 bits unless the CPU has no VNNI
    (reduce_range: its u8s8 products saturate in 16 bits). Activation ranges come from MinMax
    calibration over the request's tensors, `per_set` flat input tensors per calibration set, after
    the quantizer's own pre-processing (shape inference, graph optimization)."""
    import onnx
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)
    from onnxruntime.quantization.shape_inference import quant_pre_process

    start = time.perf_counter()
    source, output = request["model"], request["output"]
    graph_inputs = {port.name for port in onnx.load(source, load_external_data=False).graph.input}
    per_set = int(request["per_set"])
    # export_onnx.py names the inputs input_0, input_1, ... by their place among the model's
    # tensors; an input the graph does not use is not among its inputs.
    sets = [{f"input_{index}": array for index, array in enumerate(arrays[first:first + per_set])
             if f"input_{index}" in graph_inputs}
            for first in range(0, len(arrays), per_set)]

    class CalibrationSets(CalibrationDataReader):
        def __init__(self):
            self.remaining = iter(sets)

        def get_next(self):
            return next(self.remaining, None)

    prepared = output + ".prepared.onnx"
    try:
        quant_pre_process(source, prepared, skip_symbolic_shape=True)
        quantize_static(prepared, output, CalibrationSets(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        per_channel=False, reduce_range=bool(request["reduce_range"]))
    finally:
        if os.path.exists(prepared):
            os.remove(prepared)
    # Where int8 pays: the convolutions and products whose inputs the quantizer made int8.
    # QuantizeLinear/DequantizeLinear pairs around any other op (a sine, a cumulative sum) only
    # round its float input.
    quantized = onnx.load(output, load_external_data=False)
    dequantized = {node.output[0] for node in quantized.graph.node
                   if node.op_type == "DequantizeLinear"}
    quantized_ops = sum(1 for node in quantized.graph.node
                        if node.op_type in INT8_COMPUTE_OPS and node.input[0] in dequantized)
    model_ops = sorted({node.op_type for node in onnx.load(source).graph.node
                        if node.op_type != "Constant"})
    return {"quantized_ops": quantized_ops, "model_ops": model_ops,
            "seconds": time.perf_counter() - start}


def runtime_missing(error, runtime_class):
    """Whether `error` says that the runtime's own package (or a part of it) is not installed in
    this Python. Any other import error (a sibling module missing, a shared library that does not
    load, a name a module lacks) is something gone wrong, and its row fails with it."""
    missing = getattr(error, "name", None) or ""
    return (isinstance(error, ModuleNotFoundError) and runtime_class is not None
            and missing.split(".")[0] == runtime_class.package)


def error_reply(request, error):
    """The row's line for a failed request, and whether the model or this environment is beyond
    the runtime by design (unsupported) rather than something having gone wrong."""
    first = str(error).strip().splitlines()
    line = f"{type(error).__name__}: {first[0] if first else ''}"
    runtime_class = RUNTIMES.get(request.get("runtime", "")) if request["op"] == "load" else None
    if runtime_missing(error, runtime_class):
        return {"error": f"{line} in {sys.executable}: run `make peers-env` "
                         "(scripts/setup-peers.sh)", "unsupported": True}
    return {"error": line, "unsupported": bool(runtime_class and runtime_class.unsupported(error))}


def main():
    requests = sys.stdin.buffer
    # The exchange keeps the real stdout; print() and the runtimes' own output go to stderr.
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    runtime = None
    while True:
        try:
            request, arrays = read_message(requests)
        except EOFError:
            return 0
        try:
            if request["op"] == "load":
                runtime, reply = load(request)
                write_message(replies, reply)
            elif request["op"] == "run":
                if runtime is None:
                    raise RuntimeError("run before load")
                reply, outputs = run(runtime, request, arrays)
                write_message(replies, reply, outputs)
            elif request["op"] == "quiet":
                wait_for_quiet_threads()
                write_message(replies, {})
            elif request["op"] == "quantize":
                write_message(replies, quantize(request, arrays))
            else:
                raise ValueError(f"unknown op {request['op']}")
        except Exception as error:  # the row shows this line; the trace goes to stderr
            import traceback

            traceback.print_exc()
            write_message(replies, error_reply(request, error))


if __name__ == "__main__":
    sys.exit(main())
