# One precompiled LibTorch header for every target, and only for the sources
# that reach LibTorch.
#
# Why: gcc loads a precompiled header whole. <torch/torch.h> precompiles to
# ~570 MB and costs ~10 s to load in every translation unit; a report or
# statistics file that never touches LibTorch compiled in 31 s with it and
# 11 s without. <torch/script.h> (~425 MB, ~5 s to load) is what most sources
# need; the zoo's torch::nn models include <torch/torch.h> on top of it.
# Building the header once for the library and reusing it in the tests and
# benchmarks saves one ~50 s build per target. Together these took about a
# third off each build, which is what lets CI build two LibTorch versions.

# True in ${result} when ${file} includes a LibTorch header (torch/, ATen/,
# c10/ except the macro-only torch/version.h), directly or through a header
# found next to it or under ${ARGN} (the project's include roots).
function(_tracebench_reaches_torch file result)
  get_property(known GLOBAL PROPERTY "TRACEBENCH_REACHES_TORCH:${file}" SET)
  if(known)
    get_property(value GLOBAL PROPERTY "TRACEBENCH_REACHES_TORCH:${file}")
    set(${result} ${value} PARENT_SCOPE)
    return()
  endif()
  # Provisionally false, so that an include cycle ends here.
  set_property(GLOBAL PROPERTY "TRACEBENCH_REACHES_TORCH:${file}" FALSE)
  file(STRINGS "${file}" include_lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  set(value FALSE)
  get_filename_component(here "${file}" DIRECTORY)
  foreach(line IN LISTS include_lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*" "\\1" name "${line}")
    if(name MATCHES "^(torch|ATen|c10)/" AND NOT name STREQUAL "torch/version.h")
      set(value TRUE)
      break()
    endif()
    foreach(root IN ITEMS "${here}" ${ARGN})
      if(EXISTS "${root}/${name}" AND NOT IS_DIRECTORY "${root}/${name}")
        get_filename_component(header "${root}/${name}" ABSOLUTE)
        _tracebench_reaches_torch("${header}" header_reaches ${ARGN})
        if(header_reaches)
          set(value TRUE)
        endif()
        break()
      endif()
    endforeach()
    if(value)
      break()
    endif()
  endforeach()
  set_property(GLOBAL PROPERTY "TRACEBENCH_REACHES_TORCH:${file}" ${value})
  set(${result} ${value} PARENT_SCOPE)
endfunction()

# Sources of ${target} that never reach LibTorch compile without the
# precompiled header.
function(_tracebench_skip_header_where_torch_free target)
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(roots ${PROJECT_SOURCE_DIR}/src ${PROJECT_SOURCE_DIR}/include
            ${PROJECT_SOURCE_DIR}/tests/support ${PROJECT_SOURCE_DIR}/tests)
  foreach(source IN LISTS sources)
    get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${source_dir}")
    if(NOT EXISTS "${path}")
      continue()  # generated later; such a source includes the project's headers
    endif()
    _tracebench_reaches_torch("${path}" reaches ${roots})
    if(NOT reaches)
      set_source_files_properties("${path}" TARGET_DIRECTORY ${target}
                                  PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()

# The library's precompiled <torch/script.h>.
function(tracebench_precompile_torch_header target)
  target_precompile_headers(${target} PRIVATE <torch/script.h>)
  _tracebench_skip_header_where_torch_free(${target})
endfunction()

# Another target reuses the library's header; its compile flags must match the
# library's (gcc rejects a mismatched header, and -Winvalid-pch makes that an
# error under TRACEBENCH_WERROR). An executable would get -fPIE where the
# library has -fPIC: compiled with -fPIC, its objects still link into a PIE.
function(tracebench_reuse_torch_header target)
  target_precompile_headers(${target} REUSE_FROM tracebench_core)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE OFF)
  target_compile_options(${target} PRIVATE -fPIC)
  _tracebench_skip_header_where_torch_free(${target})
endfunction()
