"""What tracebench's exporters of a traced model share (export_aot_inductor.py, export_onnx.py).

tracebench traces the model (from any source: built-in, .cpp, .pt or .py) into a TorchScript
module and saves it with the example inputs; an exporter, run by the Python whose torch is the
build's LibTorch, turns the module into another runtime's file. On failure it prints a last line
"BACKEND export failed: KIND: first line" (exit 1) or "BACKEND export unsupported: ..." (exit 3,
the model is beyond the exporter by design), which the row quotes.

    python EXPORTER.py --module M.pt --inputs I.pkl --output FILE [--dynamic-dim K]
        [--precision bf16]
"""

import argparse
import sys

EXIT_UNSUPPORTED = 3


def map_leaves(inputs, leaf):
    """`inputs` with every value inside their tuples, lists and dicts, nested, replaced by
    leaf(value); the containers keep their kinds and keys. A tuple."""

    def of(value):
        if isinstance(value, (tuple, list)):
            return type(value)(of(item) for item in value)
        if isinstance(value, dict):
            return {key: of(item) for key, item in value.items()}
        return leaf(value)

    return tuple(of(value) for value in inputs)


def dynamic_shapes(inputs, dynamic_dim):
    """torch.export's dynamic_shapes for `inputs` (mirroring their tuples, lists and dicts):
    dimension dynamic_dim of every tensor of more dimensions left to torch.export (Dim.AUTO: dynamic
    where the program allows it, else the example's size)."""
    import torch

    def of(value):
        if isinstance(value, torch.Tensor) and value.dim() > dynamic_dim:
            return {dynamic_dim: torch.export.Dim.AUTO}
        return None

    return map_leaves(inputs, of)


def exported_program(module, inputs, dynamic_dim=None, wrap=None):
    """The ExportedProgram of a TorchScript module, as torch.export makes it (PyTorch 2.x), with
    dimension dynamic_dim of the inputs dynamic where the program allows it (dynamic_shapes).

    The TorchScript converter's own program computes the same, but inductor's freezing
    does not prepack its convolution weights into oneDNN's layout, so each call reorders
    every weight (resnet50, batch 1, 2 threads, one process: 81 ms against 60 ms). Exporting
    the converted program's module once more gives the program torch.export makes from
    an nn.Module, whose weights freezing prepacks (56 ms; docs/pytorch2.md).

    With a dynamic dim, the example is widened past size 1 there (widened_past_one) and both
    exports reason about sizes without the example's values (sizes_not_fixed_by_example).
    `wrap`, when given, turns the converted module into the one the second export takes.
    """
    import torch

    shapes = None
    if dynamic_dim is not None:
        inputs = widened_past_one(inputs, dynamic_dim)
        shapes = dynamic_shapes(inputs, dynamic_dim)
    with sizes_not_fixed_by_example(dynamic_dim):
        converted = converter_keeping_size_arithmetic()(module, tuple(inputs)).convert().module()
        if wrap is not None:
            converted = wrap(converted)
        return torch.export.export(converted, tuple(inputs), dynamic_shapes=shapes)


def sizes_not_fixed_by_example(dynamic_dim):
    """A context in which torch.export and inductor reason about sizes without the example's
    values (backed_size_oblivious) when there is a dynamic dim, and nothing otherwise. Without it a
    size the example has at a limit (a GPT's sequence at its block size, where slicing its mask
    takes all of it) is fixed at the example's, and the program, or AOTInductor's code, takes no
    other length."""
    import contextlib

    from torch.fx.experimental import _config as shape_config

    if dynamic_dim is None:
        return contextlib.nullcontext()
    return shape_config.patch(backed_size_oblivious=True)


def widened_past_one(inputs, dynamic_dim):
    """The inputs with dimension dynamic_dim of every tensor of size 1 there repeated to size 2.

    torch.export fixes a dimension whose example size is 1 (a 1 could broadcast): every hub model,
    whose examples are batches of 1, took batch 1 only. Reasoning without the example's values
    (sizes_not_fixed_by_example) keeps it dynamic, but what is compiled still follows the
    example: AOTInductor compiled BERT for a batch of 1 into code that gave wrong numbers at 2
    (its pooler's output off by 380x). Repeating the example's one row keeps its values valid."""
    import torch

    def of(value):
        if isinstance(value, torch.Tensor) and value.dim() > dynamic_dim and \
                value.size(dynamic_dim) == 1:
            return torch.cat([value, value], dynamic_dim)
        return value

    return map_leaves(inputs, of)


def converter_keeping_size_arithmetic():
    """torch.export's TorchScript converter, with the graph's arithmetic on ints (a size times a
    size: aten::mul.int, ...) done by Python's operators.

    The converter calls those TorchScript ops as ATen ops whose schema takes plain ints, and
    calling one with a symbolic size fixes that size at the example's: timm's mobilevit, whose
    reshapes multiply the batch by the channels, took only the example's batch. Python's
    operators keep the size symbolic."""
    import operator

    import torch
    from torch._export.converter import TS2EPConverter

    python_operator = {
        torch.ops.aten.mul.int: operator.mul,
        torch.ops.aten.add.int: operator.add,
        torch.ops.aten.sub.int: operator.sub,
        torch.ops.aten.floordiv.int: operator.floordiv,
    }

    class Converter(TS2EPConverter):
        def retrace_as_exported_program(self, gm, name_to_constant):
            for node in gm.graph.nodes:
                if node.op == "call_function" and node.target in python_operator:
                    node.target = python_operator[node.target]
            gm.recompile()
            return super().retrace_as_exported_program(gm, name_to_constant)

    return Converter


def run(backend, description, export, unsupported):
    """Parses the arguments, loads the module and inputs and calls export(module, inputs, output,
    dynamic_dim) under no_grad; dynamic_dim is --shape-set's dimension, along which every input of
    more dimensions changes size from call to call, or None for fixed shapes. With --precision,
    export also gets precision= (only an exporter that takes it is given it). An exception whose
    class name is in `unsupported` says the model is beyond the exporter; any other is a failure.
    Returns the exit code."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--module", required=True, help="TorchScript module (torch.jit.save)")
    parser.add_argument("--inputs", required=True, help="example inputs (torch::pickle_save)")
    parser.add_argument("--output", required=True, help="the file to write")
    parser.add_argument("--dynamic-dim", type=int, help="the inputs' dimension that changes size")
    parser.add_argument("--precision", choices=["bf16"], help="what the exported model computes in")
    args = parser.parse_args()
    precision = {"precision": args.precision} if args.precision else {}

    import torch

    try:
        module = torch.jit.load(args.module).eval()
        inputs = torch.load(args.inputs)  # a tuple of tensors: weights_only's default reads it
        with torch.no_grad():
            export(module, inputs, args.output, args.dynamic_dim, **precision)
    except Exception as error:  # the row shows this line; the trace goes before it
        import traceback

        traceback.print_exc()
        # An exporter may wrap the reason in errors of its own (PyTorch 2.x's ONNX exporter: a
        # ConversionError caused by a DispatchError naming the op): the first unsupported
        # cause is the verdict.
        causes = [error]
        while causes[-1].__cause__ is not None:
            causes.append(causes[-1].__cause__)
        reason = next((cause for cause in causes if type(cause).__name__ in unsupported), error)
        first = str(reason).strip().splitlines()
        verdict = "unsupported" if type(reason).__name__ in unsupported else "failed"
        print(f"{backend} export {verdict}: {type(reason).__name__}: {first[0] if first else ''}",
              file=sys.stderr)
        return EXIT_UNSUPPORTED if verdict == "unsupported" else 1
    return 0

