// The commands of the executable (main.cpp parses the command line into a Command).
//
//   sphreverb run SCENE.ini [--out DIR] [--SECTION.KEY VALUE ...]
//   sphreverb check SCENE.ini [--ranks N] [--SECTION.KEY VALUE ...]
//
// Exit codes: 0 success; 2 bad input (scene, WAV, decomposition; the message names the file, the
// line or the key); 3 the run failed (equilibrium not reached, instability, I/O error).
#pragma once

#include <mpi.h>

#include <map>
#include <string>

namespace sphreverb {

inline constexpr int kExitOk = 0, kExitBadInput = 2, kExitRunFailed = 3;

struct Command {
  std::string name;                              // "run" or "check"
  std::string scene;                             // path of the scene file
  std::string out;                               // --out DIR ("" = [output] dir)
  int ranks = 0;                                 // check --ranks N (0 = this communicator's size)
  std::map<std::string, std::string> overrides;  // dotted key -> value
};

// Collective over comm. Returns the exit code; messages go to the log (rank 0).
int run_command(const Command& cmd, MPI_Comm comm);
int check_command(const Command& cmd, MPI_Comm comm);

}  // namespace sphreverb
