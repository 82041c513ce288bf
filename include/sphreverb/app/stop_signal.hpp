// Stop requests by signal: SIGUSR1, SIGUSR2 and SIGTERM (Slurm's --signal, scancel, mpirun's
// forwarding) set an async-signal-safe flag; the run checks it at every step boundary, all ranks
// agree collectively, and the run writes a checkpoint and exits with kExitCheckpointed (75).
// Open MPI 4.1's mpirun forwards SIGUSR2 and SIGTERM to the ranks (SIGTERM followed by SIGKILL
// about a second later), not SIGUSR1: job scripts should send SIGUSR2 to mpirun.
#pragma once

namespace sphreverb {

// Installs the handlers (idempotent). Other signals keep their default behaviour.
void install_stop_handlers();
// This process received one of the signals since the handlers were installed.
bool stop_requested();
// The signal number last received (0 if none).
int stop_signal();
// The ranks agree on a stop in the step's rebuild-check reduction (Simulation::stop_agreed).

}  // namespace sphreverb
