// The checkpoint and snapshot cadence of a run: checkpoints every [output] checkpoint_every
// seconds of simulated time, at the end of stage 1 and of the run, and on a stop signal (then the
// run stops by throwing Interrupted); snapshots every [output] snapshot_every. Hooked into
// Simulation::on_step.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "sphreverb/audio/signal.hpp"
#include "sphreverb/config/scene.hpp"
#include "sphreverb/core/errors.hpp"
#include "sphreverb/io/checkpoint.hpp"
#include "sphreverb/io/run_dir.hpp"
#include "sphreverb/solver/simulation.hpp"

namespace sphreverb::app {

// The run stopped at a step boundary on a signal, after writing a checkpoint (every rank).
class Interrupted : public CollectiveError {
 public:
  using CollectiveError::CollectiveError;
};

// Steps between two events `every` seconds apart (0: never).
std::int64_t steps_between(double every, double dt);

class Checkpointer {
 public:
  Checkpointer(const Scene& scene, const io::RunDir& dir, Simulation& sim, const Signal& input,
               MPI_Comm comm);
  // Collective, at a step boundary. Throws CollectiveError (on every rank) if a file cannot be
  // written, Interrupted after the checkpoint of a stop signal.
  void after_step();
  // Collective: a checkpoint of the current state, unless this step has one already.
  void write(const char* why);
  // Collective, after the Simulation threw InstabilityError (every rank): the state at the
  // failing step as DIR/checkpoints/unstable_step_N.h5 (checkpoint.hpp, CheckpointKind::Unstable),
  // beside the last good checkpoint, which stays the latest. Returns its path; throws what the
  // writer throws.
  std::string write_unstable();
  double seconds() const { return total_seconds_; }
  double bytes() const { return total_bytes_; }
  int count() const { return count_; }

 private:
  const Scene& scene_;
  const io::RunDir& dir_;
  Simulation& sim_;
  const Signal& input_;
  MPI_Comm comm_;
  std::int64_t every_ = 0, snap_every_ = 0, last_step_ = -1;
  std::string last_path_;
  std::vector<SceneInclude> includes_;  // rank 0: the scene's included files, read at the start
  double total_seconds_ = 0.0, total_bytes_ = 0.0;
  int count_ = 0;
};

}  // namespace sphreverb::app
