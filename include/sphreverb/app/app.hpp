// The commands of the executable (main.cpp parses the command line into a Command).
//
//   sphreverb run SCENE.ini [--out DIR] [--SECTION.KEY VALUE ...]
//   sphreverb check SCENE.ini [--ranks N] [--SECTION.KEY VALUE ...]
//   sphreverb restart CHECKPOINT.h5 [--out DIR] [--time.duration S]
//   sphreverb hybrid RUN_DIR [--hybrid.KEY VALUE ...]
//
// Exit codes: exit_codes.hpp. Each command is one file (src/app/run.cpp, check.cpp,
// restart.cpp, hybrid.cpp); what run and restart share is in src/app/detail.
#pragma once

#include <mpi.h>

#include <map>
#include <string>

#include "sphreverb/app/exit_codes.hpp"

namespace sphreverb {

struct Command {
  std::string name;                              // "run" or "check"
  std::string scene;                             // path of the scene file (restart: checkpoint)
  std::string out;                               // --out DIR ("" = [output] dir)
  int ranks = 0;                                 // check --ranks N (0 = this communicator's size)
  std::map<std::string, std::string> overrides;  // dotted key -> value
};

// Collective over comm. Returns the exit code; messages go to the log (rank 0).
int run_command(const Command& cmd, MPI_Comm comm);
int check_command(const Command& cmd, MPI_Comm comm);
// Continues the run of a checkpoint (any rank count); overrides: time.duration and output.* only.
int restart_command(const Command& cmd, MPI_Comm comm);
// The geometric part and the full band of a finished run again (Command::scene: its directory),
// with [hybrid] overrides; the SPH outputs are read, not written. Exit 2 for a directory that is
// not a finished run's.
int hybrid_command(const Command& cmd, MPI_Comm comm);

}  // namespace sphreverb
