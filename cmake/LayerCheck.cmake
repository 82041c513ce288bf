# cmake -DROOT=<source dir> -P LayerCheck.cmake
# Checks the dependency direction of the source tree (docs/dev/architecture.md): a file in
# include/sphreverb/<layer>/ or src/<layer>/ may include "sphreverb/<other>/..." (or a private
# "<other>/detail/..." header) only if <other> is <layer> or a layer below it. Fails listing every
# include that points upwards and is not one of the documented exceptions.
cmake_minimum_required(VERSION 3.25)
set(layers app solver io config geometric model parallel physics audio core)  # top to bottom
# Documented upward edges, as "<from>-><to>": the checkpoint layout (io) stores the solver's
# SimulationState and uses the assembly's make_eos and make_lattice.
set(allowed "io->solver")

file(GLOB_RECURSE files RELATIVE ${ROOT}
  ${ROOT}/include/sphreverb/*.hpp ${ROOT}/src/*.hpp ${ROOT}/src/*.cpp)
set(violations "")
foreach(file IN LISTS files)
  set(from "")
  if(file MATCHES "^include/sphreverb/([a-z]+)/")
    set(from ${CMAKE_MATCH_1})
  elseif(file MATCHES "^src/([a-z]+)/")
    set(from ${CMAKE_MATCH_1})
  endif()
  if(from STREQUAL "")
    continue()
  endif()
  list(FIND layers ${from} from_rank)
  if(from_rank LESS 0)
    list(APPEND violations "${file}: not in a known layer")
    continue()
  endif()
  file(STRINGS ${ROOT}/${file} includes REGEX "^#include \"")
  foreach(line IN LISTS includes)
    set(to "")
    if(line MATCHES "^#include \"sphreverb/([a-z]+)/")
      set(to ${CMAKE_MATCH_1})
    elseif(line MATCHES "^#include \"([a-z]+)/detail/")
      set(to ${CMAKE_MATCH_1})
    endif()
    if(NOT to STREQUAL "")
      list(FIND layers ${to} to_rank)
      if(to_rank LESS 0)
        list(APPEND violations "${file}: ${line} (unknown layer)")
      elseif(to_rank LESS from_rank AND NOT "${from}->${to}" IN_LIST allowed)
        list(APPEND violations "${file}: ${line} (${from} -> ${to} points upwards)")
      endif()
    endif()
  endforeach()
endforeach()
if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "includes against the layer order (${layers}):\n  ${text}")
endif()
list(LENGTH files count)
message(STATUS "layers: ${count} files, every include points down the layer order")
