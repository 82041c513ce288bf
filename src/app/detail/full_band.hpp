// The full band of [hybrid] (docs/theory/geometric.md): the geometric part (rays, image sources)
// and the full-band files joined with SPH outputs that are already committed in the run
// directory; the full-band files and summary.json with its "hybrid" block are committed together
// at the end, so whatever stops or fails here leaves the SPH outputs as they are. Shared by `run`
// and `restart` (after their SPH outputs) and `sphreverb hybrid DIR` (a finished run's files).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "sphreverb/config/scene.hpp"
#include "sphreverb/io/output.hpp"
#include "sphreverb/io/run_dir.hpp"

namespace sphreverb::app {

// The committed SPH outputs the full band joins (rank 0's; empty elsewhere).
struct SphOutputs {
  std::vector<ReceiverOutput> receivers;   // scene order, with their audio
  std::vector<AmbisonicOutput> ambisonic;  // the ambisonic receivers', with their channels
  std::string summary;                     // summary.json's text as committed
};

// The full-band file names of `scene`'s receivers and groups (relative to the run directory).
std::vector<std::string> full_band_names(const Scene& scene);

// Collective. The geometric part of scene.hybrid on every rank (trace_hybrid_rays,
// geometric_responses: bit-identical on any rank count), then on rank 0 the full-band files and
// summary.json (summary_with_hybrid), committed together, and V19's join check logged. A stop
// signal throws Interrupted whose message names `resume` (how to run the full band again);
// nothing of the full band is committed then.
void run_full_band(const Scene& scene, const io::RunDir& dir, const SphOutputs& sph,
                   const std::string& resume, MPI_Comm comm);

}  // namespace sphreverb::app
