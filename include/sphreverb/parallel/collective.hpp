// Collective outcomes: work that runs on one rank or on every rank, whose failure on any rank is
// raised on every rank together with one message, so no rank is left waiting in a collective
// that the others have abandoned. Every function here is collective over comm: a rank that skips
// it leaves the others blocked.
#pragma once

#include <mpi.h>

#include <exception>
#include <string>

#include "sphreverb/core/errors.hpp"

namespace sphreverb {

// "" on every rank if `mine` is empty on every rank; otherwise the message of the lowest rank
// whose `mine` is not empty, on every rank.
std::string agree_on_error(const std::string& mine, MPI_Comm comm);

// Runs f on every rank; if it throws on any rank, every rank throws Error with the message of
// the lowest failing rank.
template <class Error = CollectiveError, class Fn>
void on_every_rank(MPI_Comm comm, Fn&& f) {
  std::string error;
  try {
    f();
  } catch (const std::exception& e) {
    error = e.what();
    if (error.empty()) error = "unknown error";
  }
  error = agree_on_error(error, comm);
  if (!error.empty()) throw Error(error);
}

// Runs f on rank 0 only; if it throws there, every rank throws Error with its message.
template <class Error = CollectiveError, class Fn>
void on_root(MPI_Comm comm, Fn&& f) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  on_every_rank<Error>(comm, [&] {
    if (rank == 0) f();
  });
}

}  // namespace sphreverb
