#include "sphreverb/parallel/collective.hpp"

#include <cstdint>

namespace sphreverb {

std::string agree_on_error(const std::string& mine, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int source = mine.empty() ? size : rank;
  MPI_Allreduce(MPI_IN_PLACE, &source, 1, MPI_INT, MPI_MIN, comm);
  if (source == size) return {};
  std::string message = rank == source ? mine : std::string();
  std::uint64_t n = message.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, source, comm);
  message.resize(n);
  MPI_Bcast(message.data(), static_cast<int>(n), MPI_CHAR, source, comm);
  return message;
}

}  // namespace sphreverb
