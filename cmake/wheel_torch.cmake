# LibTorch from a PyTorch 2.x wheel's torch/ folder (TRACEBENCH_TORCH_ROOT;
# make build-torch2, docs/pytorch2.md), as the imported target `torch` that
# Debian's find_package(Torch) would give:
#   - its headers need C++20 (ATen/ATen.h refuses C++17);
#   - only libtorch_cpu and libc10 are linked: libtorch.so pulls
#     libtorch_cuda.so and the whole CUDA stack, which the CPU never uses;
#   - not through the wheel's TorchConfig.cmake, which needs a CUDA toolkit
#     and finds Debian's same-named 1.13 libraries before the wheel's.
set(CMAKE_CXX_STANDARD 20)
# g++ 12 in C++20 at -O3 warns inside libstdc++'s std::string operator+
# (char_traits' memcpy: "bound exceeds maximum object size", "pointer overflow
# between offset [2, ...]", "may overlap up to 9223372036854775811 bytes"):
# false positives in the library's own code (GCC bugs 105329, 105651), where
# tracebench's code only concatenates strings. The whole family is off, since
# which one fires moves with inlining.
set(TRACEBENCH_WARNING_EXCEPTIONS -Wno-stringop-overflow -Wno-stringop-overread -Wno-array-bounds
                                  -Wno-restrict)
set(_wheel_lib "${TRACEBENCH_TORCH_ROOT}/lib")
foreach(_library torch_cpu c10)
  if(NOT EXISTS "${_wheel_lib}/lib${_library}.so")
    message(FATAL_ERROR "TRACEBENCH_TORCH_ROOT=${TRACEBENCH_TORCH_ROOT} has no lib/lib${_library}.so; "
                        "run `make torch2-env` and pass the venv's site-packages/torch")
  endif()
endforeach()
add_library(torch INTERFACE IMPORTED)
set_target_properties(torch PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES
    "${TRACEBENCH_TORCH_ROOT}/include;${TRACEBENCH_TORCH_ROOT}/include/torch/csrc/api/include"
  INTERFACE_LINK_LIBRARIES "${_wheel_lib}/libtorch_cpu.so;${_wheel_lib}/libc10.so"
  INTERFACE_COMPILE_DEFINITIONS "_GLIBCXX_USE_CXX11_ABI=1")
set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=1")
# The wheel's libraries before Debian's, which have the same names.
set(CMAKE_BUILD_RPATH "${_wheel_lib}")
# The wheel's Python runs the exporters: <venv>/lib/pythonX.Y/site-packages/torch.
get_filename_component(_venv "${TRACEBENCH_TORCH_ROOT}/../../../.." ABSOLUTE)
set(TRACEBENCH_PYTHON "${_venv}/bin/python" CACHE FILEPATH
    "The Python whose torch is this LibTorch: it runs the exporters in python/")
