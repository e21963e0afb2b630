"""Compiles a TorchScript module into an AOTInductor package (the aot_inductor backend).

tracebench traces the model (from any source: built-in, .cpp, .pt or .py) into a
TorchScript module and saves it with the example inputs; this script, run by
PyTorch 2.x's Python, turns the module into an ExportedProgram (torch.export's
TorchScript converter), compiles that with AOTInductor (freezing on, as its CPU
recipe asks) and writes the .pt2 package that the C++ side loads with
torch::inductor::AOTIModelPackageLoader. On failure it prints the first line of
what went wrong last ("aot_inductor export failed: ..." and exit 1, or "... export
unsupported: ..." and exit 3 where the model is beyond torch.export), so the row can say it.

    python export_aot_inductor.py --module M.pt --inputs I.pkl --output P.pt2
"""

import argparse
import sys
import sysconfig


# Errors that say the model uses what torch.export cannot capture by design (an
# operator fake tensors cannot run, such as the nested tensors of
# nn.TransformerEncoder's inference fast path), not that the export went wrong.
UNSUPPORTED = {"UnsupportedOperatorException"}
EXIT_UNSUPPORTED = 3


def link_only_what_tracebench_loads():
    """Two fixes to how inductor links the package's code (docs/pytorch2.md).

    - It links against Python's LIBDIR. For Debian's Python that is
      /usr/lib/x86_64-linux-gnu, which holds Debian's LibTorch 1.13 under the sonames of
      the wheel's: the vector-ISA probe then fails (kernels without SIMD) and the package
      fails to load. The generated code needs nothing from libpython: the directory goes.
    - It links -ltorch, which needs libtorch_cuda and with it the whole CUDA stack, and
      which a C++ program loading the package resolves to Debian's libtorch.so (a bus
      error). The code needs libtorch_cpu only, which tracebench links.
    """
    from torch._inductor import cpp_builder

    libdir = sysconfig.get_config_var("LIBDIR")
    python_args = cpp_builder._get_python_related_args
    torch_args = cpp_builder._get_torch_related_args

    def python_args_without_libdir():
        include_dirs, lib_dirs = python_args()
        return include_dirs, [path for path in lib_dirs if path != libdir]

    def torch_args_without_libtorch(*args, **kwargs):
        include_dirs, lib_dirs, libraries = torch_args(*args, **kwargs)
        return include_dirs, lib_dirs, [name for name in libraries if name != "torch"]

    cpp_builder._get_python_related_args = python_args_without_libdir
    cpp_builder._get_torch_related_args = torch_args_without_libtorch


def exported_program(module, inputs):
    """The ExportedProgram of a TorchScript module, as torch.export makes it.

    The TorchScript converter's own program computes the same, but inductor's freezing
    does not prepack its convolution weights into oneDNN's layout, so each call reorders
    every weight (resnet50, batch 1, 2 threads, one process: 81 ms against 60 ms). Exporting
    the converted program's module once more gives the program torch.export makes from
    an nn.Module, whose weights freezing prepacks (56 ms; docs/pytorch2.md).
    """
    import torch
    from torch._export.converter import TS2EPConverter

    converted = TS2EPConverter(module, tuple(inputs)).convert()
    return torch.export.export(converted.module(), tuple(inputs))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", required=True, help="TorchScript module (torch.jit.save)")
    parser.add_argument("--inputs", required=True, help="example inputs (torch::pickle_save)")
    parser.add_argument("--output", required=True, help="the .pt2 package to write")
    args = parser.parse_args()

    import torch
    import torch._inductor

    link_only_what_tracebench_loads()
    try:
        module = torch.jit.load(args.module).eval()
        inputs = torch.load(args.inputs)
        with torch.no_grad():
            program = exported_program(module, inputs)
            torch._inductor.aoti_compile_and_package(
                program, package_path=args.output, inductor_configs={"freezing": True})
    except Exception as error:  # the row shows this line; the trace goes before it
        import traceback

        traceback.print_exc()
        first = str(error).strip().splitlines()
        kind = type(error).__name__
        verdict = "unsupported" if kind in UNSUPPORTED else "failed"
        print(f"aot_inductor export {verdict}: {kind}: {first[0] if first else ''}",
              file=sys.stderr)
        return EXIT_UNSUPPORTED if verdict == "unsupported" else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
