"""Exports a traced TorchScript module to ONNX (the openvino and onnxruntime backends).

tracebench hands over the module with its outputs already flat (one tensor after another) and
its example inputs, tensors or tuples, lists and dicts of them; the ONNX graph's inputs, one per
tensor in depth-first order, are named input_0, input_1, ... and
its outputs output_0, output_1, ... in that order. PyTorch 1.x exports with its TorchScript
exporter; PyTorch 2.x with the dynamo exporter (torch.export, then onnxscript) on the module's
ExportedProgram. Weights are initializers of the graph, kept in float32. A failure ends in a
verdict line (traced_exporter.py).

With --dynamic-dim K (tracebench's --shape-set), dimension K of every input of more dimensions is
dynamic in the graph, so one ONNX file serves every shape of the set.

    python export_onnx.py --module M.pt --inputs I.pkl --output M.onnx [--dynamic-dim K]
"""

import sys

import traced_exporter

# The newest opset PyTorch 1.13's exporter writes; the dynamo exporter starts at 18.
OPSET_TORCHSCRIPT_EXPORTER = 17
OPSET_DYNAMO_EXPORTER = 18

# Errors that say the model uses what ONNX cannot express (an operator without an ONNX
# symbolic, PyTorch 1.x; without an ONNX function or decomposition, 2.x's DispatchError), not
# that the export went wrong.
UNSUPPORTED = {"UnsupportedOperatorError", "UnsupportedOperatorException", "DispatchError"}


def names(prefix, count):
    return [f"{prefix}_{i}" for i in range(count)]


def flat_tensors(value):
    """The tensors in value, nested in tuples, lists and dicts: ONNX takes each as an input of
    its own, in this depth-first order (tracebench feeds them in the same)."""
    if isinstance(value, (tuple, list)):
        return [tensor for item in value for tensor in flat_tensors(item)]
    if isinstance(value, dict):
        return [tensor for item in value.values() for tensor in flat_tensors(item)]
    return [value]


def unflatten_as_reshape(g, input, dim, sizes):
    """aten::unflatten for PyTorch 1.13's exporter, which has no symbolic for it (2.0 added one):
    a Reshape to the input's shape with dimension `dim` replaced by `sizes` (constants in a
    trace), the other dimensions read at run time."""
    import torch
    from torch.onnx import symbolic_helper

    dim = symbolic_helper._get_const(dim, "i", "dim")
    sizes = symbolic_helper._get_const(sizes, "is", "sizes")
    rank = symbolic_helper._get_tensor_rank(input)
    if rank is None:
        return symbolic_helper._unimplemented("unflatten", "input of unknown rank")
    dim = dim % rank
    shape = g.op("Shape", input)
    before = symbolic_helper._slice_helper(g, shape, axes=[0], starts=[0], ends=[dim])
    after = symbolic_helper._slice_helper(g, shape, axes=[0], starts=[dim + 1],
                                          ends=[sys.maxsize])
    middle = g.op("Constant", value_t=torch.tensor(sizes, dtype=torch.int64))
    return g.op("Reshape", input, g.op("Concat", before, middle, after, axis_i=0))


def export(module, inputs, output, dynamic_dim):
    import torch

    outputs = module(*inputs)
    output_count = len(outputs) if isinstance(outputs, (tuple, list)) else 1
    tensors = flat_tensors(inputs)
    input_names = names("input", len(tensors))
    output_names = names("output", output_count)
    if int(torch.__version__.split(".")[0]) < 2:
        dynamic_axes = None
        if dynamic_dim is not None:
            dynamic_axes = {name: {dynamic_dim: "shape_set"}
                            for name, tensor in zip(input_names, tensors)
                            if tensor.dim() > dynamic_dim}
        torch.onnx.register_custom_op_symbolic("aten::unflatten", unflatten_as_reshape,
                                               OPSET_TORCHSCRIPT_EXPORTER)
        torch.onnx.export(module, tuple(inputs), output, opset_version=OPSET_TORCHSCRIPT_EXPORTER,
                          do_constant_folding=True, input_names=input_names,
                          output_names=output_names, dynamic_axes=dynamic_axes)
        return
    program = traced_exporter.exported_program(module, inputs, dynamic_dim)
    onnx_program = torch.onnx.export(program, (), dynamo=True, opset_version=OPSET_DYNAMO_EXPORTER,
                                     input_names=input_names, output_names=output_names,
                                     optimize=True, verbose=False)
    onnx_program.save(output)


def main():
    return traced_exporter.run("onnx", __doc__.splitlines()[0], export, UNSUPPORTED)


if __name__ == "__main__":
    sys.exit(main())
