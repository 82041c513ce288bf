// Snapshots: light float32 views of the sound field for ParaView, every [output] snapshot_every
// seconds of simulated time: DIR/snapshots/snap_NNNNNNNNN.h5 (positions and the chosen
// [output] snapshot_fields: density, pressure, velocity, rank; and where the sources, receivers
// and moving objects are, markers.hpp), an XDMF sidecar beside each and
// DIR/snapshots/snapshots.xmf (temporal collection). Written collectively like checkpoints
// (parallel HDF5, each rank its rows, temporary name + rename), never read back by the solver.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/core/particles.hpp"
#include "sphreverb/io/checkpoint.hpp"

namespace sphreverb {

// Collective over comm: the owned particles of `p` at total step `step`, of which
// `acoustic_steps` in stage 2 (the markers' time is acoustic_steps dt).
CheckpointWritten write_snapshot(const std::string& dir, const Scene& scene, const Particles& p,
                                 std::int64_t step, std::int64_t acoustic_steps, MPI_Comm comm);

}  // namespace sphreverb
