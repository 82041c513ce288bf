// Stop requests by signal. SIGUSR1, SIGUSR2, SIGTERM and SIGINT set an async-signal-safe flag
// (the handlers are installed first thing in main, before MPI_Init); the run reads it at every
// step boundary, the ranks agree on it in the step's rebuild-check reduction
// (Simulation::stop_agreed, which also carries the signal number, so a signal that reached one rank
// is reported as itself by rank 0), and the run writes a checkpoint and exits with
// kExitCheckpointed (75). A signal before the first step is honoured after it; one after the last
// step lets the run finish (exit 0). Checkpoints are written to a hidden partial file and renamed
// when complete, so a process killed during the write leaves the previous checkpoint intact.
//
// What each launch path guarantees (Open MPI 4.1, Slurm 22.05; tests/checkpoint/signals.sh and
// signal_paths.sh measure the first four):
//
// - `sphreverb ...` without a launcher, any of the four signals: checkpoint, exit 75. Guaranteed,
//   also for a signal during start-up (it is honoured after the first step).
// - `mpirun ... sphreverb`, SIGUSR2 to mpirun: mpirun forwards it to every rank and does nothing
//   else; the ranks checkpoint and exit 75, and so does mpirun. Guaranteed: the path job scripts
//   use. (mpirun does not forward SIGUSR1.)
// - A signal sent to some ranks only (not to mpirun): every rank stops at the same step boundary,
//   the log names that signal, exit 75 (through mpirun too). Guaranteed.
// - `mpirun`, SIGTERM or SIGINT to mpirun: mpirun forwards SIGTERM to the ranks, kills them with
//   SIGKILL odls_base_sigkill_timeout seconds later (1 by default) and exits 1 whatever the ranks
//   do. The signal's checkpoint is complete only if written within that time (raise it with
//   `--mca odls_base_sigkill_timeout 60`); a cut write leaves the previous checkpoint the latest
//   and restartable. Not guaranteed: exit 1, possibly no new checkpoint.
// - `srun sphreverb ...` (--mpi=pmix): srun passes SIGTERM, SIGUSR2 and a first SIGINT on to every
//   task and exits with the tasks' largest code, so 75 (Slurm's documented behaviour; not measured
//   here).
// - `sbatch --signal=B:USR2@T` signals the batch shell only: the job script must pass it on to
//   mpirun (`kill -USR2 $pid; wait $pid`), then mpirun's 75 is the job's. Slurm's wall-time limit
//   and scancel send SIGTERM to every process of the job and SIGKILL after KillWait (30 s by
//   default): the ranks checkpoint if they can within it, mpirun exits 1.
#pragma once

namespace sphreverb {

// Installs the handlers (idempotent). Other signals keep their default behaviour.
void install_stop_handlers();
// This process received one of the signals since the handlers were installed.
bool stop_requested();
// The signal number last received (0 if none).
int stop_signal();

}  // namespace sphreverb
