# The peer runtimes (docs/peers.md): OpenVINO's C++ SDK and ONNX Runtime's
# Python, both from the PyPI wheels that scripts/setup-peers.sh puts in a
# virtual environment (build-peers/venv for the Debian build; the 2.x build's
# own venv). Without them the openvino and onnxruntime backends exist and say
# what to run.

if(NOT TRACEBENCH_RUNTIME_PYTHON)
  if(TRACEBENCH_TORCH_ROOT)
    set(_runtime_python "${TRACEBENCH_PYTHON}")  # the 2.x venv carries the runtimes too
  else()
    set(_runtime_python "${CMAKE_CURRENT_SOURCE_DIR}/build-peers/venv/bin/python")
  endif()
  set(TRACEBENCH_RUNTIME_PYTHON "${_runtime_python}" CACHE FILEPATH
      "The Python with openvino and onnxruntime (scripts/setup-peers.sh)")
endif()

# The wheel's CMake package: openvino/cmake beside its Python module.
if(NOT OpenVINO_DIR AND EXISTS "${TRACEBENCH_RUNTIME_PYTHON}")
  execute_process(
    COMMAND "${TRACEBENCH_RUNTIME_PYTHON}" -c
            "import os, openvino; print(os.path.join(os.path.dirname(openvino.__file__), 'cmake'))"
    OUTPUT_VARIABLE _openvino_cmake OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_openvino_cmake)
    set(OpenVINO_DIR "${_openvino_cmake}" CACHE PATH "OpenVINOConfig.cmake's folder")
  endif()
endif()
find_package(OpenVINO QUIET COMPONENTS Runtime)
if(OpenVINO_FOUND)
  message(STATUS "OpenVINO ${OpenVINO_VERSION}: the openvino backends are built")
else()
  message(STATUS "OpenVINO not found: the openvino backends say how to get it (make peers-env)")
endif()

# Links OpenVINO's runtime into TARGET where it was found; only
# backends/openvino.cpp includes its headers, and it learns whether it may from
# the generated openvino_config.h: a definition on the file itself would be
# lost in the unity build, which compiles it inside its folder's chunk
# (unity_build.cmake). The wheel's libraries have no search path of their
# own: CMake's build rpath names their folder.
function(tracebench_link_openvino target)
  set(TRACEBENCH_HAS_OPENVINO ${OpenVINO_FOUND})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/openvino_config.h.in
                 ${PROJECT_BINARY_DIR}/generated/openvino_config.h @ONLY)
  target_include_directories(${target} PRIVATE ${PROJECT_BINARY_DIR}/generated)
  if(OpenVINO_FOUND)
    target_link_libraries(${target} PUBLIC openvino::runtime)
  endif()
endfunction()
