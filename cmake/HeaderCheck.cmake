# add_header_check(TARGET <name> ROOT <dir> LINK <target>...)
# Every header under <dir> (*.hpp, recursively) must compile on its own: one generated translation
# unit per header, holding only `#include "<path relative to dir>"`, built into the object library
# <name> with the usage requirements (include paths, flags, warnings) of the LINK targets. A header
# that relies on something it does not include fails the build of <name>. The sources are
# regenerated when headers are added or removed (CONFIGURE_DEPENDS) and rewritten only when their
# text changes, so an up-to-date check builds nothing.
function(add_header_check)
  cmake_parse_arguments(H "" "TARGET;ROOT" "LINK" ${ARGN})
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE ${H_ROOT} ${H_ROOT}/*.hpp)
  list(SORT headers)
  set(sources "")
  foreach(header IN LISTS headers)
    string(REGEX REPLACE "[/.]" "_" stem ${header})
    set(source ${CMAKE_CURRENT_BINARY_DIR}/${H_TARGET}/${stem}.cpp)
    file(CONFIGURE OUTPUT ${source} CONTENT "#include \"${header}\"\n" @ONLY)
    list(APPEND sources ${source})
  endforeach()
  add_library(${H_TARGET} OBJECT ${sources})
  target_link_libraries(${H_TARGET} PRIVATE ${H_LINK})
endfunction()
