// Checkpoints: one parallel HDF5 file per checkpoint, written collectively (MPI-IO driver, each
// rank writes its block of rows of every particle dataset; rank 0 the run's small datasets), with
// an XDMF sidecar for ParaView. The layout is the table of checkpoint_layout.hpp
// (docs/checkpoints.md); every dataset carries `units`, `description` and `checksum`
// (order-free, over its elements).
//
// The input signal is stored from the first sample still to play on (a checkpoint late in a long
// run holds little of it). The texts of the files the scene includes are stored as read; a
// restart refuses to run if one of them changed since (the physics would differ).
//
// Files are written as DIR/checkpoints/.step_NNNNNNNNN.h5.partial, flushed and renamed to
// step_NNNNNNNNN.h5 (run_dir.hpp) once closed; older checkpoints are rotated to [output]
// keep_checkpoints only after that. A write that fails on any rank (a full disk) fails on every
// rank with one message; the previous checkpoints stay.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "sphreverb/audio/signal.hpp"
#include "sphreverb/config/scene.hpp"
#include "sphreverb/io/checkpoint_layout.hpp"
#include "sphreverb/model/mesh.hpp"
#include "sphreverb/solver/simulation_state.hpp"

namespace sphreverb {

// A checkpoint that cannot be used (missing, truncated, damaged, foreign, another layout, another
// scene): the message names the file and what is wrong. Raised on every rank together.
class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A file the scene includes ('include = PATH' before its first section), as read.
struct SceneInclude {
  std::string path;  // resolved against the scene file's directory
  std::string text;
};
// Rank 0: reads the files `scene` includes (its text's include lines). Throws CheckpointError
// naming a file that cannot be read.
std::vector<SceneInclude> read_scene_includes(const Scene& scene);
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
// `includes`: the scene's included files as read at the start of the run (rank 0; nullptr: read
// them now).
// `kind` Unstable: the same file as DIR/checkpoints/unstable_step_N.h5 (and .xmf), the state at
// the step where the run became unstable, for inspection: no rotation, not in checkpoints.xmf.
enum class CheckpointKind { Restart, Unstable };
CheckpointWritten write_checkpoint(const std::string& dir, const Scene& scene,
                                   const SimulationState& state, const Particles& particles,
                                   const Signal& input, MPI_Comm comm,
                                   const std::vector<SceneInclude>* includes = nullptr,
                                   CheckpointKind kind = CheckpointKind::Restart);
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
  std::vector<std::string> source_names;  // [emitter.NAME] sources (on every rank)
  std::vector<SceneInclude> includes;
  // The mesh files' stamps (/scene/mesh_*); mesh_files_stored false: the file predates them.
  std::vector<MeshFileStamp> mesh_files;
  bool mesh_files_stored = false;
  std::int64_t input_offset = 0;  // first sample of `input` read from the file (earlier: zeros)
  SimulationState state;          // particles: an even block of the file per rank; rank 0: the rest
  Signal input;                   // rank 0: the whole input's length, zeros before input_offset
};

// Collective over comm. Rank 0 validates the file first (HDF5 error stack off: format, layout
// version, every dataset's shape, type and checksum, the scene hash), then every rank reads its
// block of the particles (checksums verified collectively). Throws CheckpointError on every rank.
Checkpoint read_checkpoint(const std::string& path, MPI_Comm comm);

// Collective: throws CheckpointError (every rank) naming the first file the checkpoint's scene
// includes whose text on disk differs from the stored one (or that is gone).
void check_includes(const Checkpoint& ckpt, MPI_Comm comm);

// Collective: throws CheckpointError (every rank) naming the first mesh file of the checkpoint's
// scene whose size or SHA-256 on disk differs from the stored one (or that is gone). A checkpoint
// without the stamps (written before they existed) is not compared: false is returned then,
// true otherwise.
bool check_mesh_files(const Checkpoint& ckpt, MPI_Comm comm);

// Throws CheckpointError unless `scene` (parsed from the checkpoint's text, maybe with a new
// duration) describes the same particles, time step and receivers as the checkpoint (with the
// face-element state its reacting mirror faces need), and its
// duration is not shorter than what is already recorded.
void check_compatible(const Checkpoint& ckpt, const Scene& scene, std::int64_t scene_particles);

}  // namespace sphreverb
