// What `run` and `restart` share: taking the output directory (after every input was validated),
// running stages 1 and 2 with checkpoints, writing the outputs, and the exit code of a failure.
#pragma once

#include <mpi.h>

#include <chrono>
#include <exception>
#include <string>

#include "sphreverb/audio/signal.hpp"
#include "sphreverb/config/scene.hpp"
#include "sphreverb/core/errors.hpp"
#include "sphreverb/io/run_dir.hpp"
#include "sphreverb/solver/simulation.hpp"

namespace sphreverb::app {

// The output directory cannot be created or written (exit 3: the run cannot make its files).
class OutputDirError : public CollectiveError {
 public:
  using CollectiveError::CollectiveError;
};
// The output directory is held by another live run (exit 2).
class OutputDirBusy : public CollectiveError {
 public:
  using CollectiveError::CollectiveError;
};

// Collective (rank 0 works): creates DIR, checks it is writable, takes its lock, then removes
// the outputs of an earlier run there (`fresh`, a new run: its checkpoints and snapshots too).
// Call only once every input is validated, so a refused input never costs earlier results.
// `origin` names where DIR came from ("--out" or "[output] dir") for the messages.
io::RunDirLock take_output_dir(const Scene& scene, const io::RunDir& dir, bool fresh,
                               const std::string& origin, MPI_Comm comm);

// Collective: stages 1 and 2 from wherever `sim` stands, with checkpoints, then the WAVs,
// energy.csv and summary.json (written under temporary names, committed together). Returns
// kExitOk; failures throw.
int continue_run(const Scene& scene, const io::RunDir& dir, Simulation& sim, const Signal& input,
                 MPI_Comm comm, std::chrono::steady_clock::time_point start, double baseline);

// The exit code of an exception escaping a command (rank 0 logs its message); `code` is the
// code of a collective failure at that point. A failure on one rank alone aborts the job.
int exit_code_of(const std::exception_ptr& ep, int code, const std::string& scene_path,
                 MPI_Comm comm);

}  // namespace sphreverb::app
