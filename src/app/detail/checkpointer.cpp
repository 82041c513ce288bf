#include "app/detail/checkpointer.hpp"

#include <algorithm>
#include <cmath>

#include "sphreverb/app/stop_signal.hpp"
#include "sphreverb/core/log.hpp"
#include "sphreverb/io/checkpoint.hpp"
#include "sphreverb/io/snapshot.hpp"
#include "sphreverb/parallel/collective.hpp"

namespace sphreverb::app {

std::int64_t steps_between(double every, double dt) {
  return every > 0 ? std::max<std::int64_t>(1, std::llround(every / dt)) : 0;
}

Checkpointer::Checkpointer(const Scene& scene, const io::RunDir& dir, Simulation& sim,
                           const Signal& input, MPI_Comm comm)
    : scene_(scene),
      dir_(dir),
      sim_(sim),
      input_(input),
      comm_(comm),
      every_(steps_between(scene.output.checkpoint_every, scene.derived.dt)),
      snap_every_(steps_between(scene.output.snapshot_every, scene.derived.dt)) {
  on_root<CheckpointError>(comm, [&] { includes_ = read_scene_includes(scene); });
}

void Checkpointer::after_step() {
  const std::int64_t step = sim_.total_steps();
  const bool stop = sim_.stop_agreed();  // agreed in the step's rebuild check
  if (every_ > 0 && step % every_ == 0) write("cadence");
  if (snap_every_ > 0 && step % snap_every_ == 0) {
    const CheckpointWritten w =
        write_snapshot(dir_.path(), scene_, sim_.particles(), step, sim_.acoustic_steps(), comm_);
    total_seconds_ += w.seconds;
    logger("io")->debug("snapshot {}: {:.3g} MB in {:.3f} s", w.path,
                        static_cast<double>(w.bytes) * 1e-6, w.seconds);
  }
  if (stop) {
    write("signal");
    throw Interrupted("stopped by signal " + std::to_string(sim_.stop_signal_agreed()) +
                      " at step " + std::to_string(step) + ": checkpoint " + last_path_ +
                      "; continue with: sphreverb restart " + last_path_);
  }
}

void Checkpointer::write(const char* why) {
  const std::int64_t step = sim_.total_steps();
  if (step == last_step_) return;
  const CheckpointWritten w = write_checkpoint(dir_.path(), scene_, sim_.export_run_state(),
                                               sim_.particles(), input_, comm_, &includes_);
  last_step_ = step, last_path_ = w.path;
  total_seconds_ += w.seconds, total_bytes_ += static_cast<double>(w.bytes), ++count_;
  logger("io")->info("checkpoint {} ({}): {:.3g} MB in {:.3f} s ({:.3g} MB/s)", w.path, why,
                     static_cast<double>(w.bytes) * 1e-6, w.seconds,
                     w.seconds > 0 ? static_cast<double>(w.bytes) * 1e-6 / w.seconds : 0.0);
}

std::string Checkpointer::write_unstable() {
  SimulationState state = sim_.export_run_state();
  // A stage-1 step counts after it ran (Simulation::equilibrate): the positions are the next one's.
  if (state.run.stage == 1) ++state.run.stage1_steps;
  const CheckpointWritten w = write_checkpoint(dir_.path(), scene_, state, sim_.particles(), input_,
                                               comm_, &includes_, CheckpointKind::Unstable);
  total_seconds_ += w.seconds;
  logger("io")->info("state at the unstable step: {} ({:.3g} MB in {:.3f} s)", w.path,
                     static_cast<double>(w.bytes) * 1e-6, w.seconds);
  return w.path;
}

}  // namespace sphreverb::app
