// Exit codes of the executable (docs/running.md, "Exit codes"):
//   0  success
//   2  bad input: scene, WAV, decomposition (the message names the file, the line or the key);
//      a damaged, foreign or incompatible checkpoint; an output directory held by another run
//   3  the run failed: equilibrium not reached, instability, an I/O error (an output directory
//      that cannot be written, a full disk)
//   75 stopped by SIGUSR1/SIGUSR2/SIGTERM after writing a checkpoint ("checkpointed, resubmit":
//      continue with `restart`)
//   130 `check` stopped by SIGINT, SIGTERM, SIGUSR1 or SIGUSR2 (nothing written, nothing to
//   continue)
#pragma once

namespace sphreverb {

inline constexpr int kExitOk = 0, kExitBadInput = 2, kExitRunFailed = 3, kExitCheckpointed = 75,
                     kExitInterrupted = 130;

}  // namespace sphreverb
