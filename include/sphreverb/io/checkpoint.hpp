// Checkpoints: one parallel HDF5 file per checkpoint, written collectively (MPI-IO driver, each
// rank writes its block of rows of every particle dataset; rank 0 the run's small datasets), with
// an XDMF sidecar for ParaView. The layout (README "Checkpoints and restart"):
//
//   /            attributes format = "sphreverb checkpoint", layout_version, program_version,
//                particles, ranks, step, time
//   /run/        step, time, dt, stage, stage1_steps, stage1_energy, stage1_previous_energy,
//                stage1_wall_seconds, reference_taken, acoustic_steps, rebuilds
//   /scene/      text, path, overrides ("key=value" lines), hash (FNV-1a 64 of text + overrides)
//   /emitter/    input [M] (the run-rate input signal), input_rate, next_step, shift, speed,
//                last_acceleration
//   /receivers/  names, position [R,3], reference_density [R], density [R,S] (every record)
//   /particles/  position [N,3], velocity [N,3] (t - dt/2), density [N], rest_position [N,3],
//                key [N], rebuild_position [N,3] (optional: the positions at the last
//                neighbour-list rebuild, which a restart rebuilds from), and for viewing only:
//                pressure [N] (p'), rank [N], index [N] (0..N-1)
//
// Every dataset carries `units`, `description` and `checksum` (order-free, over its elements).
// Files are written as DIR/checkpoints/.step_NNNNNNNNN.h5.partial and renamed to step_NNNNNNNNN.h5
// once closed; older checkpoints are pruned to [output] keep_checkpoints only after that.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/audio/signal.hpp"
#include "sphreverb/solver/simulation_state.hpp"

namespace sphreverb {

// A checkpoint that cannot be used (missing, truncated, damaged, foreign, another layout, another
// scene): the message names the file and what is wrong. Raised on every rank together.
class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr std::int64_t kCheckpointLayout = 1;
inline constexpr const char* kCheckpointFormat = "sphreverb checkpoint";

// "step_000000123.h5"
std::string checkpoint_name(std::int64_t step);
// FNV-1a 64-bit of the scene text and its overrides, as 16 hex digits.
std::string scene_hash(const std::string& text,
                       const std::map<std::string, std::string>& overrides);

struct CheckpointWritten {
  std::string path;
  std::uint64_t bytes = 0;
  double seconds = 0.0;  // wall time of the write, rename and sidecars
};

// Collective over comm. Writes DIR/checkpoints/step_N.h5 (N = state's total steps), step_N.xmf
// and checkpoints.xmf, then prunes to scene.output.keep_checkpoints. `input` (the run-rate input
// signal) is significant on rank 0 only. Throws CollectiveError if the file cannot be written.
// Test hook: SPHREVERB_TEST_CHECKPOINT_SLEEP=S sleeps S seconds before closing the partial file.
// The particle datasets are written from the owned rows [0, n_owned) of `particles` (a running
// Simulation's store: no copy of it is made, state.particles is not read), in blocks of at most
// File::kChunkRows rows.
CheckpointWritten write_checkpoint(const std::string& dir, const Scene& scene,
                                   const SimulationState& state, const Particles& particles,
                                   const Signal& input, MPI_Comm comm);
// The same with the particles of the state (state.particles).
CheckpointWritten write_checkpoint(const std::string& dir, const Scene& scene,
                                   const SimulationState& state, const Signal& input,
                                   MPI_Comm comm);

struct Checkpoint {
  std::string path, program_version;
  std::string scene_text, scene_path, scene_hash;
  std::map<std::string, std::string> overrides;
  std::int64_t step = 0, particles = 0;
  double time = 0.0, dt = 0.0;  // s
  std::vector<std::string> receiver_names;
  SimulationState state;  // particles: an even block of the file per rank; rank 0: the rest
  Signal input;           // rank 0
};

// Collective over comm. Rank 0 validates the file first (HDF5 error stack off: format, layout
// version, every dataset's shape, type and checksum, the scene hash), then every rank reads its
// block of the particles (checksums verified collectively). Throws CheckpointError on every rank.
Checkpoint read_checkpoint(const std::string& path, MPI_Comm comm);

// Throws CheckpointError unless `scene` (parsed from the checkpoint's text, maybe with a new
// duration) describes the same particles, time step and receivers as the checkpoint, and its
// duration is not shorter than what is already recorded.
void check_compatible(const Checkpoint& ckpt, const Scene& scene, std::int64_t scene_particles);

}  // namespace sphreverb
