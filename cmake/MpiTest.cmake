# add_mpi_test(NAME <name> COMMAND <exe> [args...] RANKS <n>... [LABELS <l>...] [TIMEOUT <s>])
# Adds one ctest case per rank count, <name>_np<n>, run as
#   mpiexec --oversubscribe -n <n> <exe> [args...]
# with the Open MPI variables that allow running as root (CI and these machines run as root).
function(add_mpi_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "COMMAND;RANKS;LABELS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  foreach(n IN LISTS T_RANKS)
    add_test(NAME ${T_NAME}_np${n}
      COMMAND ${MPIEXEC_EXECUTABLE} --oversubscribe ${MPIEXEC_NUMPROC_FLAG} ${n}
              ${MPIEXEC_PREFLAGS} ${T_COMMAND} ${MPIEXEC_POSTFLAGS})
    set_tests_properties(${T_NAME}_np${n} PROPERTIES
      LABELS "mpi;${T_LABELS}" TIMEOUT ${T_TIMEOUT} PROCESSORS ${n}
      ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
  endforeach()
endfunction()
