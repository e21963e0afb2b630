"""Compiles a TorchScript module into an AOTInductor package (the aot_inductor backend).

tracebench traces the model (from any source: built-in, .cpp, .pt or .py) into a
TorchScript module and saves it with the example inputs; this script, run by
PyTorch 2.x's Python, turns the module into an ExportedProgram (torch.export's
TorchScript converter), compiles that with AOTInductor (freezing on, as its CPU
recipe asks) and writes the .pt2 package that the C++ side loads with
torch::inductor::AOTIModelPackageLoader. A failure ends in a verdict line
(traced_exporter.py).

With --precision bf16 (aot_inductor_bf16) the weights are cast to bfloat16 and the
graph takes and returns float32, casting at its edges: the dynamo runner's --bfloat16
recipe (the whole model cast, not autocast), compiled into the package.

    python export_aot_inductor.py --module M.pt --inputs I.pkl --output P.pt2 [--precision bf16]
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


def in_bfloat16(module):
    """`module` with its floating-point weights in bfloat16, taking and returning float32: its
    float inputs are cast down on entry and its float outputs back up on exit, so that the C++
    side feeds and reads the package as it does the float32 one."""
    import torch
    from torch.utils import _pytree

    def cast(value, dtype):
        is_float = isinstance(value, torch.Tensor) and value.is_floating_point()
        return value.to(dtype) if is_float else value

    class InBFloat16(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = module.to(torch.bfloat16)

        def forward(self, *args):
            args = _pytree.tree_map(lambda value: cast(value, torch.bfloat16), args)
            return _pytree.tree_map(lambda value: cast(value, torch.float32), self.inner(*args))

    return InBFloat16()


def export(module, inputs, output, dynamic_dim, precision=None):
    import torch._inductor

    link_only_what_tracebench_loads()
    wrap = in_bfloat16 if precision == "bf16" else None
    program = traced_exporter.exported_program(module, inputs, dynamic_dim, wrap)
    with traced_exporter.sizes_not_fixed_by_example(dynamic_dim):
        torch._inductor.aoti_compile_and_package(program,
                                                 package_path=output,
                                                 inductor_configs={"freezing": True})


def main():
    return traced_exporter.run("aot_inductor", __doc__.splitlines()[0], export, UNSUPPORTED)


if __name__ == "__main__":
    sys.exit(main())
