"""Compiles a TorchScript module into an AOTInductor package (the aot_inductor backend).

tracebench traces the model (from any source: built-in, .cpp, .pt or .py) into a
TorchScript module and saves it with the example inputs; this script, run by
PyTorch 2.x's Python, turns the module into an ExportedProgram (torch.export's
TorchScript converter), compiles that with AOTInductor (freezing on, as its CPU
recipe asks) and writes the .pt2 package that the C++ side loads with
torch::inductor::AOTIModelPackageLoader. A failure ends in a verdict line
(traced_exporter.py).

    python export_aot_inductor.py --module M.pt --inputs I.pkl --output P.pt2
"""

import sys
import sysconfig

import traced_exporter


# Errors that say the model uses what torch.export cannot capture by design (an
# operator fake tensors cannot run, such as the nested tensors of
# nn.TransformerEncoder's inference fast path), not that the export went wrong.
UNSUPPORTED = {"UnsupportedOperatorException"}


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


def export(module, inputs, output, dynamic_dim):
    import torch._inductor

    link_only_what_tracebench_loads()
    program = traced_exporter.exported_program(module, inputs, dynamic_dim)
    with traced_exporter.sizes_not_fixed_by_example(dynamic_dim):
        torch._inductor.aoti_compile_and_package(program,
                                                 package_path=output,
                                                 inductor_configs={"freezing": True})


def main():
    return traced_exporter.run("aot_inductor", __doc__.splitlines()[0], export, UNSUPPORTED)


if __name__ == "__main__":
    sys.exit(main())
