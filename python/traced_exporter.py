"""What tracebench's exporters of a traced model share (export_aot_inductor.py, export_onnx.py).

tracebench traces the model (from any source: built-in, .cpp, .pt or .py) into a TorchScript
module and saves it with the example inputs; an exporter, run by the Python whose torch is the
build's LibTorch, turns the module into another runtime's file. On failure it prints a last line
"BACKEND export failed: KIND: first line" (exit 1) or "BACKEND export unsupported: ..." (exit 3,
the model is beyond the exporter by design), which the row quotes.

    python EXPORTER.py --module M.pt --inputs I.pkl --output FILE [--dynamic-dim K]
"""

import argparse
import sys

EXIT_UNSUPPORTED = 3


def dynamic_shapes(inputs, dynamic_dim):
    """torch.export's dynamic_shapes for `inputs` (mirroring their tuples, lists and dicts):
    dimension dynamic_dim of every tensor of more dimensions left to torch.export (Dim.AUTO: dynamic
    where the program allows it, else the example's size)."""
    import torch

    def of(value):
        if isinstance(value, (tuple, list)):
            return type(value)(of(item) for item in value)
        if isinstance(value, dict):
            return {key: of(item) for key, item in value.items()}
        if isinstance(value, torch.Tensor) and value.dim() > dynamic_dim:
            return {dynamic_dim: torch.export.Dim.AUTO}
        return None

    return tuple(of(value) for value in inputs)


def exported_program(module, inputs, dynamic_dim=None):
    """The ExportedProgram of a TorchScript module, as torch.export makes it (PyTorch 2.x), with
    dimension dynamic_dim of the inputs dynamic where the program allows it (dynamic_shapes).

    The TorchScript converter's own program computes the same, but inductor's freezing
    does not prepack its convolution weights into oneDNN's layout, so each call reorders
    every weight (resnet50, batch 1, 2 threads, one process: 81 ms against 60 ms). Exporting
    the converted program's module once more gives the program torch.export makes from
    an nn.Module, whose weights freezing prepacks (56 ms; docs/pytorch2.md).
    """
    import torch
    from torch._export.converter import TS2EPConverter

    converted = TS2EPConverter(module, tuple(inputs)).convert()
    shapes = None if dynamic_dim is None else dynamic_shapes(inputs, dynamic_dim)
    return torch.export.export(converted.module(), tuple(inputs), dynamic_shapes=shapes)


def run(backend, description, export, unsupported):
    """Parses the arguments, loads the module and inputs and calls export(module, inputs, output,
    dynamic_dim) under no_grad; dynamic_dim is --shape-set's dimension, along which every input of
    more dimensions changes size from call to call, or None for fixed shapes. An exception whose
    class name is in `unsupported` says the model is beyond the exporter; any other is a failure.
    Returns the exit code."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--module", required=True, help="TorchScript module (torch.jit.save)")
    parser.add_argument("--inputs", required=True, help="example inputs (torch::pickle_save)")
    parser.add_argument("--output", required=True, help="the file to write")
    parser.add_argument("--dynamic-dim", type=int, help="the inputs' dimension that changes size")
    args = parser.parse_args()

    import torch

    try:
        module = torch.jit.load(args.module).eval()
        inputs = torch.load(args.inputs)  # a tuple of tensors: weights_only's default reads it
        with torch.no_grad():
            export(module, inputs, args.output, args.dynamic_dim)
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

