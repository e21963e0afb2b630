# ccache, where the machine has it (scripts/install-deps.sh installs it): CI
# builds two LibTorch versions from a clean clone, and with a warm cache
# (~/.cache/ccache, outside the clone) every file that did not change comes
# back from it. The precompiled LibTorch header (torch_precompiled_header.cmake)
# is cached too, which takes ccache's pch sloppiness and gcc's -fpch-preprocess;
# CCACHE_BASEDIR makes the clone's own paths relative, so that a clone in
# another folder hits the same entries. -DTRACEBENCH_CCACHE=OFF compiles
# without it.
option(TRACEBENCH_CCACHE "Compile through ccache when it is installed" ON)
find_program(TRACEBENCH_CCACHE_PROGRAM ccache)
if(TRACEBENCH_CCACHE AND TRACEBENCH_CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER
      ${CMAKE_COMMAND} -E env
      CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
      CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} ${TRACEBENCH_CCACHE_PROGRAM})
  add_compile_options(-fpch-preprocess)
endif()
