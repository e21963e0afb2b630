#!/usr/bin/env python3
"""Exports a model class from a Python file to a TorchScript archive.

Used by tracebench for `--only=path:FILE.py,class:NAME`:

    export_model.py --file FILE.py --class NAME --output ARCHIVE.pt
                    [--input-shapes 2x3,4] [--manifest MANIFEST.json] [--seed N]

FILE.py is imported the way `python3 FILE.py` would see it (its directory
first on sys.path, so sibling modules import), torch and random are seeded
with --seed (tracebench passes its own --seed), NAME() is created with no
arguments and put in eval mode, and its inputs come from
`get_example_inputs()` (a tensor, or a tuple, list or dict of tensors; a dict
is passed as keyword arguments, `model(**inputs)`; an input may itself be a
tuple, list or dict of tensors, as an RNN's hidden state (h, c) is) or from
--input-shapes (float tensors of those shapes).

The archive holds a wrapper module whose TorchScript class is also named NAME,
with each character other than a letter, digit or _ made _ (the model is its
submodule `model`). Its forward takes the inputs
positionally, a dict's values in the dict's order, and returns:
  - a tensor, when the model returns a tensor;
  - otherwise a flat tuple of the tensors in the model's output, depth first
    in container order (dict insertion order, NamedTuple field order), with
    the values that are no tensors (None, numbers, strings: a seq2seq model's
    decoded lengths) left out, as PyTorch's dynamo runner leaves them out of
    its comparison.

Where TorchScript cannot save the trace (forward calls a torch.autograd.Function
or other Python code, which the tracer records as a Python call), PyTorch 2.x
exports the model with torch.export (non-strict, decomposed to ATen ops) and
traces what it made instead; PyTorch 1.13 has no torch.export, and its error
says so.

Extra files in the archive:
  tracebench/example_inputs.pt   torch.save'd tuple of the input tensors (a
                                 tuple: LibTorch 1.13's unpickler lacks APPEND).
                                 A sparse COO tensor, which LibTorch's
                                 unpickler cannot read, is saved as the tuple
                                 ("tracebench.sparse_coo", indices, values,
                                 size as an int64 tensor).
  tracebench/input_names.json    JSON list of the inputs' names: the dict's
                                 keys, else "input0", "input1", ...
  tracebench/output_paths.json   JSON list, one path per returned tensor: a
                                 dict key or NamedTuple field is its name
                                 (joined with "." below the top level), a
                                 tuple or list entry is "[i]", and a tensor
                                 returned bare is "output". So
                                 {"logits": t, "hidden": (a, b)} gives
                                 ["logits", "hidden[0]", "hidden[1]"], and
                                 (t, {"aux": u}) gives ["[0]", "[1].aux"].
  tracebench/dropped_outputs.json  JSON list of the paths, as above, of the
                                 values left out: {"logits": t, "lengths": 7}
                                 gives ["lengths"]. Every row warns of them
                                 (non_tensor_outputs).

With --manifest, a successful export also writes JSON
    {"python": sys.version, "torch": torch.__version__, "files": [...],
     "environment_files": [...]}
where files are the sorted real paths of the source files of every imported
module that lies outside the Python installation (the model file, its
sibling modules, ...), and environment_files the interpreter and torch's
version.py: what a cached archive goes stale with.

Errors end with one line starting `error:` that says what to fix (exit 2).
Signals are left alone, so the caller can end a hung export.
"""

import argparse
import fnmatch
import functools
import importlib.util
import inspect
import io
import json
import os
import random
import re
import sys


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


try:
    import torch
except ImportError:
    fail("this python has no torch; install python3-torch or set TRACEBENCH_PYTHON")

USER_MODULE = "tracebench_user_model"
# The wrapper's TorchScript namespace. It differs from USER_MODULE so that the
# wrapper and the wrapped class, both named NAME, get distinct qualified names
# rather than TorchScript mangling one of them.
WRAPPER_MODULE = "tracebench_export"


class ExportError(Exception):
    """A problem with the user's model; the message names the fix."""


def parse_args():
    parser = argparse.ArgumentParser(description="Export a model class to a TorchScript archive.")
    parser.add_argument("--file", required=True, help="the Python file defining the class")
    parser.add_argument("--class", dest="class_name", required=True, help="the nn.Module class")
    parser.add_argument("--output", required=True, help="where to write the archive")
    parser.add_argument("--input-shapes", default="",
                        help="float inputs of these shapes instead of get_example_inputs(), "
                             "e.g. 2x3,4")
    parser.add_argument("--manifest", help="after exporting, write the source files it used here")
    parser.add_argument("--seed", type=int, default=1337,
                        help="seeds torch and random before the class is created, so its "
                             "initial parameters and random example inputs are the same on "
                             "every machine")
    return parser.parse_args()


def parse_shapes(text):
    return [tuple(int(d) for d in shape.split("x")) for shape in text.split(",") if shape]


def load_user_module(path):
    sys.path.insert(0, os.path.dirname(os.path.realpath(path)))  # as `python3 FILE` has it
    spec = importlib.util.spec_from_file_location(USER_MODULE, path)
    module = importlib.util.module_from_spec(spec)
    # Registered like any imported module: dataclasses, typing and pickling
    # look the module up by name, and the manifest lists it.
    sys.modules[USER_MODULE] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        raise ExportError(f"{path}:{e.lineno}: syntax error: {e.msg}; fix the file")
    except Exception as e:  # the user's module raised while importing
        raise ExportError(f"importing {path} raised {type(e).__name__}: {e}; fix the module so "
                          f"that importing it succeeds")
    return module


def model_class(module, path, class_name):
    try:
        cls = getattr(module, class_name, None)
    except LookupError as e:  # a module that builds classes by name (hub_models.py) says why not
        raise ExportError(e)
    if cls is None:
        classes = [n for n, v in vars(module).items()
                   if isinstance(v, type) and issubclass(v, torch.nn.Module)
                   and v.__module__ == module.__name__]
        raise ExportError(f"no class {class_name} in {path} (nn.Module classes there: "
                          f"{', '.join(classes) or 'none'}); use one of them in class:")
    if not (isinstance(cls, type) and issubclass(cls, torch.nn.Module)):
        raise ExportError(f"{class_name} is not a torch.nn.Module subclass")
    return cls


def required_arguments(cls):
    """The names of the constructor's arguments that have no default."""
    try:
        parameters = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):  # no signature to inspect; calling it will tell
        return []
    return [p.name for p in parameters
            if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD,
                                                   p.KEYWORD_ONLY)]


def construct(cls, class_name):
    # Checked before calling, so that a TypeError raised inside the
    # constructor is reported as the constructor's own failure.
    needed = required_arguments(cls)
    if needed:
        raise ExportError(
            f"{class_name}() needs arguments ({', '.join(needed)}); give every constructor "
            f"argument a default, or add a class that builds it without arguments, e.g. "
            f"class My{class_name}({class_name}): def __init__(self): super().__init__(...)")
    try:
        return cls()
    except Exception as e:
        raise ExportError(f"{class_name}() raised {type(e).__name__}: {e}; fix its constructor "
                          f"(tracebench calls it with no arguments)")


def example_inputs(model, class_name, input_shapes):
    """The inputs as (names, tensors, passed_as_keywords)."""
    if input_shapes:
        tensors = tuple(torch.randn(shape) for shape in parse_shapes(input_shapes))
        return [f"input{i}" for i in range(len(tensors))], tensors, False
    if not hasattr(model, "get_example_inputs"):
        raise ExportError(f"class {class_name} has no get_example_inputs(); add one or pass "
                          f"--input-shapes")
    try:
        inputs = model.get_example_inputs()
    except Exception as e:
        raise ExportError(f"{class_name}.get_example_inputs() raised {type(e).__name__}: {e}; "
                          f"fix it or pass --input-shapes")
    return name_inputs(inputs, class_name)


def name_inputs(inputs, class_name):
    if isinstance(inputs, torch.Tensor):
        inputs = (inputs,)
    keywords = isinstance(inputs, dict)
    if keywords:
        named = list(inputs.items())
    elif isinstance(inputs, (tuple, list)):
        named = [(f"input{i}", value) for i, value in enumerate(inputs)]
    else:
        raise ExportError(f"{class_name}.get_example_inputs must return tensors (a tensor, or a "
                          f"tuple, list or dict of them), got {type(inputs).__name__}")
    for name, value in named:
        odd = first_non_tensor(value)
        if odd is not None:
            raise ExportError(f"{class_name}.get_example_inputs must return tensors (alone, or "
                              f"in tuples, lists and dicts), got {type(odd).__name__} for "
                              f"{name}; make it a tensor, or set it in the constructor")
        if keywords and not (isinstance(name, str) and name.isidentifier()):
            raise ExportError(f"{class_name}.get_example_inputs returned a dict with key "
                              f"{name!r}; its keys must be forward's argument names")
    return [name for name, _ in named], tuple(value for _, value in named), keywords


# What a model may return beside its tensors, left out of the trace's outputs.
NON_TENSOR_LEAVES = (type(None), bool, int, float, complex, str, bytes)


def first_non_tensor(value):
    """The first value in an input that is neither a tensor nor a tuple, list or dict of them
    (an RNN's hidden state (h, c) is a tuple of tensors); None if there is none."""
    if isinstance(value, torch.Tensor):
        return None
    if isinstance(value, (tuple, list)):
        children = value
    elif isinstance(value, dict) and all(isinstance(key, str) for key in value):
        children = value.values()
    else:
        return value
    return next((odd for odd in map(first_non_tensor, children) if odd is not None), None)


def flatten_outputs(value, path=""):
    """(path, tensor) pairs of the tensors in value, in the order and with
    the paths the module docstring describes; (path, None) for a value that is
    no tensor, to be left out."""
    if isinstance(value, torch.Tensor):
        return [(path or "output", value)]
    if isinstance(value, NON_TENSOR_LEAVES):
        return [(path or "output", None)]
    if isinstance(value, dict):
        children = [(join_name(path, key), child) for key, child in value.items()]
    elif isinstance(value, tuple) and hasattr(value, "_fields"):  # a NamedTuple
        children = [(join_name(path, field), getattr(value, field)) for field in value._fields]
    elif isinstance(value, (tuple, list)):
        children = [(f"{path}[{i}]", child) for i, child in enumerate(value)]
    else:
        raise ExportError(f"forward returned {type(value).__name__} at "
                          f"{path or 'the top level'}; return tensors (and numbers, strings or "
                          f"None, which are left out), alone or in tuples, lists and dicts")
    return [leaf for child_path, child in children for leaf in flatten_outputs(child, child_path)]


def join_name(path, name):
    return f"{path}.{name}" if path else str(name)


def wrap(model, class_name, input_names, keywords):
    """A module named class_name that calls model with positional inputs and
    returns its output flattened. Its output_paths are set when it runs."""

    def __init__(self):
        torch.nn.Module.__init__(self)
        self.model = model

    def forward(self, *inputs):
        if keywords:
            output = self.model(**dict(zip(input_names, inputs)))
        else:
            output = self.model(*inputs)
        flat = flatten_outputs(output)
        leaves = [(path, tensor) for path, tensor in flat if tensor is not None]
        if not leaves:
            raise ExportError("forward returned no tensors; return at least one")
        # Recorded while tracing, so that the model runs only once.
        self.output_paths = [path for path, _ in leaves]
        self.dropped_outputs = [path for path, tensor in flat if tensor is None]
        if isinstance(output, torch.Tensor):
            return output
        return tuple(tensor for _, tensor in leaves)

    # TorchScript splits qualified names at dots: hub specs (hf:bert?dropout=0.1) name
    # classes with any characters.
    torchscript_name = re.sub(r"\W", "_", class_name, flags=re.ASCII)
    wrapper_class = type(torchscript_name, (torch.nn.Module,), {
        "__init__": __init__, "forward": forward,
        "__module__": WRAPPER_MODULE, "__qualname__": torchscript_name})
    return wrapper_class()


def trace(wrapper, inputs, class_name):
    try:
        with torch.no_grad():
            # strict=False: the model itself, a traced submodule, may return
            # lists and dicts; the wrapper returns only tensors.
            return torch.jit.trace(wrapper, inputs, strict=False, check_trace=False)
    except ExportError:
        raise
    except Exception as e:
        raise ExportError(f"tracing {class_name} raised {type(e).__name__}: "
                          f"{str(e).splitlines()[0]}; its forward must run on the example "
                          f"inputs under torch.jit.trace")


# How a sparse COO input travels to LibTorch, whose unpickler knows no sparse layout
# (src/sources/script_loader.cpp reads it back).
SPARSE_COO_TAG = "tracebench.sparse_coo"


def readable_by_libtorch(value):
    """value with each sparse COO tensor, nested too, as its SPARSE_COO_TAG tuple."""
    if isinstance(value, torch.Tensor) and value.layout == torch.sparse_coo:
        value = value.coalesce()
        return (SPARSE_COO_TAG, value.indices(), value.values(), torch.tensor(value.shape))
    if isinstance(value, (tuple, list)):
        return type(value)(readable_by_libtorch(child) for child in value)
    if isinstance(value, dict):
        return {key: readable_by_libtorch(child) for key, child in value.items()}
    return value


def save_archive(traced, path, inputs, input_names, output_paths, dropped_outputs):
    """Writes the archive whole or not at all: a failed save leaves no file for the cache to
    take for a model. Raises UnsavableTrace where TorchScript cannot save the trace."""
    buffer = io.BytesIO()
    # A tuple: LibTorch 1.13's unpickler lacks APPEND.
    torch.save(tuple(readable_by_libtorch(value) for value in inputs), buffer)
    partial = path + ".partial"
    try:
        torch.jit.save(traced, partial, _extra_files={
            "tracebench/example_inputs.pt": buffer.getvalue(),
            "tracebench/input_names.json": json.dumps(input_names),
            "tracebench/output_paths.json": json.dumps(output_paths),
            "tracebench/dropped_outputs.json": json.dumps(dropped_outputs),
        })
        os.replace(partial, path)
    except Exception as e:
        if os.path.exists(partial):
            os.remove(partial)
        raise UnsavableTrace(e)


class UnsavableTrace(Exception):
    """TorchScript could not save the trace (a Python call in it); the error it gave."""


def first_line(error):
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def unsavable(class_name, error, torch_export_error=None):
    """The one line for a trace TorchScript cannot save: what in the model, what torch.export
    said where it was tried, and the ways out."""
    first = first_line(error)
    called = re.search(r"Could not export Python function call '([^']+)'", first)
    what = (f"forward calls the Python function {called.group(1)} (a torch.autograd.Function, "
            f"or Python code TorchScript cannot hold)" if called else first)
    ways_out = ("write it with torch ops, or save a TorchScript archive yourself "
                "(torch.jit.script, or torch.jit.trace on a model without it) and pass the .pt file")
    if torch_export_error is None:
        ways_out += ", or run it on tracebench's PyTorch 2.x build (make build-torch2), which " \
                    "exports it with torch.export"
        return f"TorchScript cannot save {class_name}'s trace: {what}; {ways_out}"
    return (f"TorchScript cannot save {class_name}'s trace: {what}, and torch.export failed too "
            f"({first_line(torch_export_error)}); {ways_out}")


def has_torch_export():
    return hasattr(torch, "export") and hasattr(torch.export, "export")


def trace_of_torch_export(wrapper, inputs, class_name, input_names):
    """On PyTorch 2.x, what torch.export makes of the model (a torch.autograd.Function's forward
    and other Python code traced through to ATen ops), traced again for TorchScript. Raises
    what torch.export or the second trace raised."""
    with torch.no_grad():
        exported = torch.export.export(wrapper, tuple(inputs), strict=False).run_decompositions()
    # The same class name and output structure as the first wrapper's: its output paths hold.
    return trace(wrap(exported.module(), class_name, input_names, keywords=False), inputs,
                 class_name)


def is_installed(path):
    """Whether path belongs to the Python installation or an installed package."""
    roots = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    parts = path.split(os.sep)
    return (any(os.path.commonpath([path, root]) == root for root in roots)
            or "site-packages" in parts or "dist-packages" in parts
            or fnmatch.fnmatch(path, "/usr/lib/python3*")
            or fnmatch.fnmatch(path, "/etc/python3*"))  # Debian's sitecustomize.py


# torch.distributed writes this module into a temporary directory that it deletes at
# exit (torch/distributed/nn/jit/instantiator.py), and timm imports it: torch's file,
# which would make every cached archive look stale.
GENERATED_BY_TORCH = {"_remote_module_non_scriptable"}


def source_files(model_file):
    """The real paths of the imported modules' files outside the installation."""
    files = {os.path.realpath(model_file)}
    for name, module in list(sys.modules.items()):
        if name in GENERATED_BY_TORCH:
            continue
        file = getattr(module, "__file__", None)
        if file:
            file = os.path.realpath(file)
            if os.path.isfile(file) and not is_installed(file):
                files.add(file)
    return sorted(files)


def environment_files():
    """Files that change when the interpreter, torch or a model library
    (hub_models.py's) is upgraded: a cached archive made by another version is
    stale too."""
    files = {os.path.realpath(sys.executable),
             os.path.realpath(os.path.join(os.path.dirname(torch.__file__), "version.py"))}
    for library in ("transformers", "timm"):
        if library in sys.modules:
            files.add(os.path.realpath(sys.modules[library].__file__))
    return sorted(files)


def write_manifest(path, model_file):
    manifest = {"python": sys.version, "torch": torch.__version__,
                "files": source_files(model_file), "environment_files": environment_files()}
    with open(path, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")


def seed_everything(seed):
    """The generators a model file draws its parameters and example inputs from."""
    random.seed(seed)
    torch.manual_seed(seed)
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed(seed % 2**32)


def export(args):
    module = load_user_module(args.file)
    seed_everything(args.seed)
    model = construct(model_class(module, args.file, args.class_name), args.class_name)
    model.eval()
    input_names, inputs, keywords = example_inputs(model, args.class_name, args.input_shapes)
    wrapper = wrap(model, args.class_name, input_names, keywords)
    traced = trace(wrapper, inputs, args.class_name)
    save = functools.partial(save_archive, path=args.output, inputs=inputs,
                             input_names=input_names, output_paths=wrapper.output_paths,
                             dropped_outputs=wrapper.dropped_outputs)
    try:
        save(traced)
    except UnsavableTrace as unsaved:
        if not has_torch_export():
            raise ExportError(unsavable(args.class_name, unsaved))
        try:
            save(trace_of_torch_export(wrapper, inputs, args.class_name, input_names))
        except Exception as e:  # torch.export's own errors, and a second unsavable trace
            raise ExportError(unsavable(args.class_name, unsaved, e))
    if args.manifest:
        write_manifest(args.manifest, args.file)


def main():
    args = parse_args()
    try:
        export(args)
    except ExportError as e:
        fail(e)


if __name__ == "__main__":
    main()
