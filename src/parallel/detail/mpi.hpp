// Rank and size of a communicator as values (internal helpers of the commands and checkpoints).
#pragma once

#include <mpi.h>

namespace sphreverb::detail {

inline int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}
inline int size_of(MPI_Comm comm) {
  int s = 1;
  MPI_Comm_size(comm, &s);
  return s;
}

}  // namespace sphreverb::detail
