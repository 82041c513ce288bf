// Stop requests by signal. SIGUSR1, SIGUSR2, SIGTERM and SIGINT set an async-signal-safe flag
// (the handlers are installed first thing in main, before MPI_Init); the run reads it at every
// step boundary, the ranks agree on it in the step's rebuild-check reduction
// (Simulation::stop_agreed, which also carries the signal number, so a signal that reached one rank
// is reported as itself by rank 0), and the run writes a checkpoint and exits with
// kExitCheckpointed (75). A signal before the first step is honoured after it; one after the last
// step lets the run finish (exit 0). Checkpoints are written to a hidden partial file and renamed
// when complete, so a process killed during the write leaves the previous checkpoint intact.
//
// What each launch path guarantees (Open MPI 4.1, Slurm 22.05):
//
// - `sphreverb ...` without a launcher, any of the four signals: checkpoint, exit 75. Guaranteed.
// - `mpirun ... sphreverb`, SIGUSR2 (or SIGUSR1) to mpirun: mpirun forwards it to every rank and
//   does nothing else; the ranks checkpoint and exit 75, and mpirun exits 75. Guaranteed: the path
//   job scripts should use.
// - `mpirun`, SIGTERM or SIGINT to mpirun: mpirun forwards SIGTERM to the ranks and kills them with
//   SIGKILL odls_base_sigkill_timeout seconds later (default 1); it exits 1 whatever the ranks do.
//   A checkpoint is written only if it completes within that second (raise it with
//   `--mca odls_base_sigkill_timeout 60`); otherwise the previous checkpoint stays the latest.
//   Not guaranteed: exit 1, not 75.
// - A signal sent to some ranks only (not to mpirun): those ranks' flag is enough, every rank
//   stops at the same step boundary; exit 75 (through mpirun too). Guaranteed.
// - `srun sphreverb ...` (--mpi=pmix), SIGUSR2/SIGTERM/SIGINT to srun: srun forwards the signal to
//   every task (one SIGINT; a second within a second kills the step) and exits with the tasks'
//   largest code: 75.
// - `sbatch --signal=B:USR2@T` delivers SIGUSR2 to the batch shell only: the job script must trap
//   it and pass it on (`kill -USR2 $mpirun_pid; wait`), then exit 75 is mpirun's. `--signal=USR2@T`
//   (no B:) sends it to the job's steps (srun tasks; mpirun's daemons, which forward it).
//   Slurm's wall-time limit and scancel send SIGTERM to every process of the job, then SIGKILL
//   after KillWait (30 s by default): the ranks checkpoint if they can within it; mpirun exits 1.
#pragma once

namespace sphreverb {

// Installs the handlers (idempotent). Other signals keep their default behaviour.
void install_stop_handlers();
// This process received one of the signals since the handlers were installed.
bool stop_requested();
// The signal number last received (0 if none).
int stop_signal();

}  // namespace sphreverb
