#!/usr/bin/env python3
"""Exports a model class from a Python file to a TorchScript archive.

Used by tracebench for `--only=path:FILE.py,class:NAME`: the class is created
with no arguments, `get_example_inputs()` is called, the module is traced in
eval mode, and the example inputs are stored in the archive beside it.
Errors end with one line starting `error:` that says what to fix.
"""

import argparse
import importlib.util
import io
import sys


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def parse_shapes(text):
    return [tuple(int(d) for d in shape.split("x")) for shape in text.split(",") if shape]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--file", required=True)
    parser.add_argument("--class", dest="class_name", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--input-shapes", default="")
    args = parser.parse_args()

    try:
        import torch
    except ImportError:
        fail("this python has no torch; install python3-torch or set TRACEBENCH_PYTHON")

    spec = importlib.util.spec_from_file_location("tracebench_user_model", args.file)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        fail(f"{args.file}:{e.lineno}: syntax error: {e.msg}; fix the file")
    except Exception as e:  # the user's module raised while importing
        fail(f"importing {args.file} raised {type(e).__name__}: {e}; fix the module so that "
             f"importing it succeeds")

    cls = getattr(module, args.class_name, None)
    if cls is None:
        classes = [n for n, v in vars(module).items()
                   if isinstance(v, type) and issubclass(v, torch.nn.Module) and v.__module__ == module.__name__]
        fail(f"no class {args.class_name} in {args.file} (nn.Module classes there: "
             f"{', '.join(classes) or 'none'}); use one of them in class:")
    if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module)):
        fail(f"{args.class_name} is not a torch.nn.Module subclass")
    try:
        model = cls()
    except TypeError as e:
        fail(f"{args.class_name}() cannot be created without arguments ({e}); give every "
             f"constructor argument a default")
    except Exception as e:
        fail(f"{args.class_name}() raised {type(e).__name__}: {e}; fix its constructor "
             f"(tracebench calls it with no arguments)")
    model.eval()

    if args.input_shapes:
        inputs = tuple(torch.randn(shape) for shape in parse_shapes(args.input_shapes))
    elif hasattr(model, "get_example_inputs"):
        try:
            inputs = model.get_example_inputs()
        except Exception as e:
            fail(f"{args.class_name}.get_example_inputs() raised {type(e).__name__}: {e}; fix it "
                 f"or pass --input-shapes")
        if isinstance(inputs, torch.Tensor):
            inputs = (inputs,)
        inputs = tuple(inputs)
        if not all(isinstance(t, torch.Tensor) for t in inputs):
            fail(f"{args.class_name}.get_example_inputs must return tensors, got "
                 f"{[type(t).__name__ for t in inputs]}")
    else:
        fail(f"class {args.class_name} has no get_example_inputs(); add one or pass --input-shapes")

    try:
        with torch.no_grad():
            traced = torch.jit.trace(model, inputs, check_trace=False)
    except Exception as e:
        fail(f"tracing {args.class_name} raised {type(e).__name__}: {str(e).splitlines()[0]}; "
             f"its forward must run on the example inputs under torch.jit.trace")

    buffer = io.BytesIO()
    torch.save(tuple(inputs), buffer)  # a tuple: LibTorch 1.13's unpickler lacks APPEND
    torch.jit.save(traced, args.output,
                   _extra_files={"tracebench/example_inputs.pt": buffer.getvalue()})


if __name__ == "__main__":
    main()
