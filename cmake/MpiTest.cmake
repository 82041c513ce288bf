# add_mpi_test(NAME <name> COMMAND <exe> [args...] RANKS <n>... [LABELS <l>...] [TIMEOUT <s>])
# Adds one ctest case per rank count, <name>_np<n>, run as
#   mpiexec --oversubscribe -n <n> <exe> [args...]
# with MPI_TEST_ENVIRONMENT: the Open MPI variables that allow running as root (CI and these
# machines run as root) and PMIx without munge authentication. Slurm's packages install libmunge;
# with munged not running, PMIx retries its socket for about 2.3 s at every launch (mpiexec or a
# singleton), which would dominate the many short runs of the suite. And mpiexec without its
# kill sequence's waits: after a rank exits non-zero (every refused input), it sends SIGCONT,
# SIGTERM and SIGKILL one second apart even to ranks that have already exited (2 s per case).
set(MPI_TEST_ENVIRONMENT
  "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
  "PMIX_MCA_psec=^munge;OMPI_MCA_odls_base_sigkill_timeout=0")

# Gives every test of the calling directory MPI_TEST_ENVIRONMENT (the scripts' own launches
# inherit it). Call at the end of each CMakeLists.txt that adds tests.
function(use_mpi_test_environment)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT ${MPI_TEST_ENVIRONMENT})
  endforeach()
endfunction()

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
      LABELS "mpi;${T_LABELS}" TIMEOUT ${T_TIMEOUT} PROCESSORS ${n})
  endforeach()
endfunction()
